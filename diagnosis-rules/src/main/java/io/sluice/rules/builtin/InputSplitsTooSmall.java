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

/** INPUT_SPLITS_TOO_SMALL: many short file-scan map tasks that each write little shuffle output. */
public final class InputSplitsTooSmall extends BuiltinRule {
  public static final String ID = "INPUT_SPLITS_TOO_SMALL";
  static final Threshold MIN_TASKS =
      Threshold.of(
          "minTasks",
          Unit.COUNT,
          200,
          1,
          1e12,
          "A map stage is judged only if it has at least this many successful tasks.");
  static final Threshold MAX_MEAN_MS =
      Threshold.of(
          "maxMeanTaskRunMs",
          Unit.MILLIS,
          2000,
          1,
          1e12,
          "A map stage is judged only if its mean task run time is at most this (long tasks are not overhead-bound).");
  static final Grades WRITE =
      Grades.falling(
          "writeBytesPerTask",
          Unit.BYTES,
          "a map stage's shuffle bytes written / successful tasks",
          8 * Sizes.MIB,
          2 * Sizes.MIB,
          256 * Sizes.KIB,
          16 * Sizes.KIB,
          0,
          Sizes.TIB);
  static final Threshold MAX_GROWTH =
      Threshold.of(
          "maxGrowthFactor",
          Unit.RATIO,
          64,
          2,
          1024,
          "The recommended spark.sql.files.maxPartitionBytes is at most this factor above the value in force.");
  static final Threshold TARGET_MS =
      Threshold.of(
          "targetTaskMs",
          Unit.MILLIS,
          2000,
          100,
          1e9,
          "Map task run time the recommendation aims at.");

  public InputSplitsTooSmall() {
    this(null);
  }

  private InputSplitsTooSmall(RuleSettings s) {
    super(
        ID,
        declare(MIN_TASKS, MAX_MEAN_MS, WRITE, MAX_GROWTH, TARGET_MS),
        s,
        InputSplitsTooSmall::new);
  }

  @Override
  public String description() {
    return "Many short file-scan map tasks that each write little shuffle output (input splits too small).";
  }

  @Override
  public String documentation() {
    return "Judges every map stage (writes a shuffle, reads none) that scans files (its tasks read input bytes) "
        + "with at least `minTasks` successful tasks and a "
        + "mean task run time of at most `maxMeanTaskRunMs` by `writeBytesPerTask` = shuffle bytes written / "
        + "tasks; the smallest sets the severity. Each map task writes one small file per reduce partition and "
        + "costs the driver a task launch; reducers then fetch map x reduce tiny blocks.\n\n"
        + "Recommends raising `spark.sql.files.maxPartitionBytes` (default 128m) by the factor that brings the "
        + "mean task to `targetTaskMs` (a power of two, at most `maxGrowthFactor`), and at least to Spark's "
        + "default 128m. That key only changes file-source scans, so map stages over other sources (ranges, "
        + "parallelized collections, JDBC: no input bytes read) are not judged; they need fewer input partitions "
        + "in the job itself.";
  }

  @Override
  Diagnosis evaluate(AppRun run, RunConf conf) {
    WorstStage pick = WorstStage.lowestMeasure();
    for (StageProfile s : mapStages(run)) {
      if (!s.scansFiles()
          || s.successfulTasks() < get(MIN_TASKS)
          || meanTaskRunMs(s) > get(MAX_MEAN_MS)) {
        continue;
      }
      if (!pick.offer(s, settings.grade(WRITE, writePerTask(s)), writePerTask(s))) {
        continue;
      }
    }
    if (pick.isEmpty()) {
      return none();
    }
    Severity worst = pick.severity();
    StageProfile w = pick.stage();
    List<Integer> flagged = pick.flagged();
    long current = conf.maxPartitionBytes();
    double factor =
        Math.min(
            get(MAX_GROWTH),
            Math.max(2, Sizes.nextPowerOfTwo(get(TARGET_MS) / Math.max(1, meanTaskRunMs(w)))));
    long wanted = Math.min(64 * Sizes.GIB, Math.max(128 * Sizes.MIB, (long) (current * factor)));
    Map<String, Double> ev = evidence();
    ev.put("successfulTasks", (double) w.successfulTasks());
    ev.put("writeBytesPerTask", writePerTask(w));
    ev.put("shuffleWriteBytes", (double) w.shuffleWriteBytes());
    ev.put("meanTaskRunMs", meanTaskRunMs(w));
    ev.put("maxPartitionBytes", (double) current);
    ev.put("flaggedStages", (double) flagged.size());
    String summary =
        String.format(
            Locale.ROOT,
            "%s ran %d map tasks of %.0f ms on average that wrote only %s of shuffle output each "
                + "(spark.sql.files.maxPartitionBytes=%s)",
            stage(w),
            w.successfulTasks(),
            meanTaskRunMs(w),
            bytes(writePerTask(w)),
            Sizes.sparkBytes(current));
    List<Recommendation> recs = new ArrayList<>();
    if (wanted > current) {
      recs.add(
          new Recommendation(
              RunConf.MAX_PARTITION_BYTES,
              Sizes.sparkBytes(wanted),
              "pack more input into each split (was "
                  + bytes(current)
                  + "): "
                  + w.successfulTasks()
                  + " map tasks ran "
                  + Math.round(meanTaskRunMs(w))
                  + " ms and wrote "
                  + bytes(writePerTask(w))
                  + " each"));
    }
    return diagnosis(worst, flagged, summary, ev, recs);
  }

  private static double writePerTask(StageProfile s) {
    return s.successfulTasks() == 0 ? 0 : (double) s.shuffleWriteBytes() / s.successfulTasks();
  }
}
