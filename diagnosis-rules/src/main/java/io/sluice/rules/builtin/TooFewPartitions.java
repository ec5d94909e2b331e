package io.sluice.rules.builtin;

import io.sluice.config.Unit;
import io.sluice.model.AppRun;
import io.sluice.model.Diagnosis;
import io.sluice.model.Recommendation;
import io.sluice.model.Severity;
import io.sluice.model.StageProfile;
import io.sluice.rules.Grades;
import io.sluice.rules.RuleSettings;
import io.sluice.rules.RunConf;
import io.sluice.rules.Sizes;
import io.sluice.rules.Threshold;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** TOO_FEW_PARTITIONS: each reduce task reads a huge amount of shuffle data. */
public final class TooFewPartitions extends BuiltinRule {
  public static final String ID = "TOO_FEW_PARTITIONS";
  static final Grades PER_TASK =
      Grades.rising(
          "readBytesPerTask",
          Unit.BYTES,
          "a stage's shuffle bytes read / successful tasks",
          256 * Sizes.MIB,
          512 * Sizes.MIB,
          2 * Sizes.GIB,
          8 * Sizes.GIB,
          1,
          Sizes.TIB * 1024);
  static final Threshold TARGET =
      Threshold.of(
          "targetPartitionBytes",
          Unit.BYTES,
          128 * Sizes.MIB,
          Sizes.MIB,
          2 * Sizes.GIB,
          "Shuffle partition size the recommended partition count aims at.");

  public TooFewPartitions() {
    this(null);
  }

  private TooFewPartitions(RuleSettings s) {
    super(ID, declare(PER_TASK, TARGET), s, TooFewPartitions::new);
  }

  @Override
  public String description() {
    return "Reduce tasks each read a huge amount of shuffle data (too few shuffle partitions).";
  }

  @Override
  public String documentation() {
    return "Judges every stage that reads a shuffle by `readBytesPerTask` = shuffle bytes read / successful tasks; "
        + "the largest sets the severity. Huge partitions spill, run long, lose the most work on a failure and "
        + "leave cores idle.\n\n"
        + "Recommends `spark.sql.shuffle.partitions` = the largest flagged stage's shuffle bytes / "
        + "`targetPartitionBytes` (at most 100000) when above the value in force (default 200). With AQE on, "
        + "coalescing merges partitions that turn out small, so a generous count is cheap.";
  }

  @Override
  Diagnosis evaluate(AppRun run, RunConf conf) {
    WorstStage pick = WorstStage.highestMeasure();
    long maxBytes = 0;
    for (StageProfile s : reduceStages(run)) {
      if (s.successfulTasks() == 0) {
        continue;
      }
      if (!pick.offer(s, settings.grade(PER_TASK, readPerTask(s)), readPerTask(s))) {
        continue;
      }
      maxBytes = Math.max(maxBytes, s.shuffleBytesRead());
    }
    if (pick.isEmpty()) {
      return none();
    }
    Severity worst = pick.severity();
    StageProfile w = pick.stage();
    List<Integer> flagged = pick.flagged();
    long wanted = Math.min(100_000, Math.max(1, (long) Math.ceil(maxBytes / get(TARGET))));
    Map<String, Double> ev = evidence();
    ev.put("readBytesPerTask", readPerTask(w));
    ev.put("shuffleBytesRead", (double) w.shuffleBytesRead());
    ev.put("successfulTasks", (double) w.successfulTasks());
    ev.put("shuffleReadBytesMax", (double) w.shuffleReadBytesMax());
    ev.put("diskBytesSpilled", (double) w.diskBytesSpilled());
    ev.put("taskDurationMaxMs", (double) w.taskDurationMaxMs());
    ev.put("recommendedPartitions", (double) wanted);
    ev.put("flaggedStages", (double) flagged.size());
    String summary =
        String.format(
            Locale.ROOT,
            "%s read %s of shuffle data in only %d task(s), %s per task (largest %s)",
            stage(w),
            bytes(w.shuffleBytesRead()),
            w.successfulTasks(),
            bytes(readPerTask(w)),
            bytes(w.shuffleReadBytesMax()));
    List<Recommendation> recs = new ArrayList<>();
    if (wanted > conf.shufflePartitions()) {
      recs.add(
          new Recommendation(
              RunConf.SHUFFLE_PARTITIONS,
              Long.toString(wanted),
              "the largest flagged shuffle holds "
                  + bytes(maxBytes)
                  + ": "
                  + wanted
                  + " partitions of about "
                  + bytes(get(TARGET))
                  + " instead of "
                  + conf.shufflePartitions()));
    }
    return diagnosis(worst, flagged, summary, ev, recs);
  }
}
