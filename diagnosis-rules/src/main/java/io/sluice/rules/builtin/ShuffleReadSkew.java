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

/** SHUFFLE_READ_SKEW: one reduce task reads far more shuffle data than the median task. */
public final class ShuffleReadSkew extends BuiltinRule {
  public static final String ID = "SHUFFLE_READ_SKEW";
  static final Threshold MIN_MAX_READ =
      Threshold.of(
          "minMaxTaskReadBytes",
          Unit.BYTES,
          4 * Sizes.MIB,
          0,
          Sizes.TIB * 1024,
          "A stage is judged only if its largest task read at least this many shuffle bytes.");
  static final Threshold MIN_TASKS =
      Threshold.of(
          "minTasks",
          Unit.COUNT,
          4,
          2,
          1e9,
          "A stage is judged only if it has at least this many successful tasks.");
  static final Grades SKEW =
      Grades.rising(
          "readSkew",
          Unit.RATIO,
          "a stage's max / median task shuffle read",
          3,
          5,
          10,
          50,
          1,
          1e12);

  public ShuffleReadSkew() {
    this(null);
  }

  private ShuffleReadSkew(RuleSettings s) {
    super(ID, declare(MIN_MAX_READ, MIN_TASKS, SKEW), s, ShuffleReadSkew::new);
  }

  @Override
  public String description() {
    return "One reduce task reads far more shuffle data than the median task (max / median task shuffle read).";
  }

  @Override
  public String documentation() {
    return "Judges every stage with at least `minTasks` successful tasks whose largest task read at least "
        + "`minMaxTaskReadBytes` by `readSkew` = max / median task shuffle read; the highest ratio sets the "
        + "severity. The straggler holds the stage (and the executors waiting for it) until it finishes.\n\n"
        + "Recommends AQE (`spark.sql.adaptive.enabled=true`) and its skew-join splitting "
        + "(`spark.sql.adaptive.skewJoin.enabled=true`) when off; when both are on, lowers "
        + "`spark.sql.adaptive.skewJoin.skewedPartitionThresholdInBytes` (default 256m) to half the largest task "
        + "read (at least 16m) so that partition counts as skewed. AQE splits skewed partitions of sort-merge "
        + "joins only; a skewed aggregation needs a salted key.";
  }

  @Override
  Diagnosis evaluate(AppRun run, RunConf conf) {
    WorstStage pick = WorstStage.highestMeasure();
    for (StageProfile s : reduceStages(run)) {
      if (s.successfulTasks() < get(MIN_TASKS) || s.shuffleReadBytesMax() < get(MIN_MAX_READ)) {
        continue;
      }
      if (!pick.offer(s, settings.grade(SKEW, s.readSkew()), s.readSkew())) {
        continue;
      }
    }
    if (pick.isEmpty()) {
      return none();
    }
    Severity worst = pick.severity();
    StageProfile w = pick.stage();
    List<Integer> flagged = pick.flagged();
    Map<String, Double> ev = evidence();
    ev.put("readSkew", w.readSkew());
    ev.put("shuffleReadBytesMax", (double) w.shuffleReadBytesMax());
    ev.put("shuffleReadBytesMedian", (double) w.shuffleReadBytesMedian());
    ev.put("shuffleBytesRead", (double) w.shuffleBytesRead());
    ev.put("reducePartitions", (double) w.reducePartitions());
    ev.put("taskDurationMaxMs", (double) w.taskDurationMaxMs());
    ev.put("meanTaskRunMs", meanTaskRunMs(w));
    ev.put("flaggedStages", (double) flagged.size());
    String summary =
        String.format(
            Locale.ROOT,
            "%s: the largest task read %s of shuffle data, %.1fx the median task (%s); it ran %.1f s against a mean "
                + "of %.1f s",
            stage(w),
            bytes(w.shuffleReadBytesMax()),
            w.readSkew(),
            bytes(w.shuffleReadBytesMedian()),
            w.taskDurationMaxMs() / 1000.0,
            meanTaskRunMs(w) / 1000.0);
    List<Recommendation> recs = new ArrayList<>();
    String why =
        "the largest task reads "
            + String.format(Locale.ROOT, "%.1f", w.readSkew())
            + "x the median";
    if (!conf.aqeEnabled()) {
      recs.add(
          new Recommendation(RunConf.AQE, "true", "AQE splits skewed join partitions: " + why));
    }
    if (!conf.skewJoinEnabled()) {
      recs.add(
          new Recommendation(
              RunConf.SKEW_JOIN, "true", "split skewed sort-merge join partitions: " + why));
    }
    if (conf.aqeEnabled() && conf.skewJoinEnabled()) {
      long threshold =
          Math.max(16 * Sizes.MIB, w.shuffleReadBytesMax() / 2 / Sizes.MIB * Sizes.MIB);
      if (threshold < conf.skewThresholdBytes()) {
        recs.add(
            new Recommendation(
                RunConf.SKEW_THRESHOLD,
                Sizes.sparkBytes(threshold),
                "the skewed partition ("
                    + bytes(w.shuffleReadBytesMax())
                    + ") is below the skew threshold in force ("
                    + bytes(conf.skewThresholdBytes())
                    + "), so AQE does not split it"));
      }
    }
    return diagnosis(worst, flagged, summary, ev, recs);
  }
}
