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

/** TOO_MANY_SMALL_TASKS: reduce stages with many tasks that each run only briefly. */
public final class TooManySmallTasks extends BuiltinRule {
  public static final String ID = "TOO_MANY_SMALL_TASKS";
  static final Threshold MIN_TASKS =
      Threshold.of(
          "minTasks",
          Unit.COUNT,
          400,
          1,
          1e12,
          "A stage is judged only if it has at least this many successful tasks.");
  static final Grades MEAN_MS =
      Grades.falling(
          "meanTaskRunMs",
          Unit.MILLIS,
          "a stage's mean task run time (executor run time / successful tasks)",
          500,
          200,
          50,
          10,
          0,
          1e12);
  static final Threshold TARGET_MS =
      Threshold.of(
          "targetTaskMs",
          Unit.MILLIS,
          2000,
          100,
          1e9,
          "Task run time the recommended partition count aims at.");
  static final Threshold TARGET_BYTES =
      Threshold.of(
          "targetPartitionBytes",
          Unit.BYTES,
          64 * Sizes.MIB,
          Sizes.MIB,
          2 * Sizes.GIB,
          "Shuffle partition size the recommendations aim at.");

  public TooManySmallTasks() {
    this(null);
  }

  private TooManySmallTasks(RuleSettings s) {
    super(ID, declare(MIN_TASKS, MEAN_MS, TARGET_MS, TARGET_BYTES), s, TooManySmallTasks::new);
  }

  @Override
  public String description() {
    return "Reduce stages with very many tasks that each run only briefly (scheduling overhead dominates).";
  }

  @Override
  public String documentation() {
    return "Judges every stage that reads a shuffle and has at least `minTasks` successful tasks by the mean task "
        + "run time (`executorRunTimeMs` / `successfulTasks`); the shortest mean sets the severity. Each task "
        + "costs scheduling, launch and result handling on the driver, and fetches one block from every map "
        + "task. (Map stages reading input are judged by INPUT_SPLITS_TOO_SMALL.)\n\n"
        + "Recommends `spark.sql.shuffle.partitions` = max(total run time / `targetTaskMs`, shuffle bytes / "
        + "`targetPartitionBytes`, 1) over the flagged stages (and no fewer than the run's largest shuffle read needs at "
        + "`targetPartitionBytes`), if below the value in force, and AQE "
        + "coalescing towards `targetPartitionBytes` (AQE on, `parallelismFirst=false`, advisory size).";
  }

  @Override
  Diagnosis evaluate(AppRun run, RunConf conf) {
    WorstStage pick = WorstStage.lowestMeasure();
    long wanted = 0;
    for (StageProfile s : reduceStages(run)) {
      if (s.successfulTasks() < get(MIN_TASKS)) {
        continue;
      }
      if (!pick.offer(s, settings.grade(MEAN_MS, meanTaskRunMs(s)), meanTaskRunMs(s))) {
        continue;
      }
      long byTime = (long) Math.ceil(s.executorRunTimeMs() / get(TARGET_MS));
      long bySize = (long) Math.ceil(s.shuffleBytesRead() / get(TARGET_BYTES));
      wanted = Math.max(wanted, Math.max(1, Math.max(byTime, bySize)));
    }
    if (pick.isEmpty()) {
      return none();
    }
    Severity worst = pick.severity();
    StageProfile w = pick.stage();
    List<Integer> flagged = pick.flagged();
    for (StageProfile r : reduceStages(run)) {
      wanted = Math.max(wanted, (long) Math.ceil(r.shuffleBytesRead() / get(TARGET_BYTES)));
    }
    Map<String, Double> ev = evidence();
    ev.put("successfulTasks", (double) w.successfulTasks());
    ev.put("meanTaskRunMs", meanTaskRunMs(w));
    ev.put("executorRunTimeMs", (double) w.executorRunTimeMs());
    ev.put("shuffleBytesRead", (double) w.shuffleBytesRead());
    ev.put("readBytesPerTask", readPerTask(w));
    ev.put("recommendedPartitions", (double) wanted);
    ev.put("flaggedStages", (double) flagged.size());
    String summary =
        String.format(
            Locale.ROOT,
            "%s ran %d tasks of %.0f ms on average, each reading %s of shuffle data; %d stage(s) like it",
            stage(w),
            w.successfulTasks(),
            meanTaskRunMs(w),
            bytes(readPerTask(w)),
            flagged.size());
    List<Recommendation> recs = new ArrayList<>();
    if (wanted < conf.shufflePartitions()) {
      recs.add(
          new Recommendation(
              RunConf.SHUFFLE_PARTITIONS,
              Long.toString(wanted),
              wanted
                  + " partitions of about "
                  + Sizes.plain(get(TARGET_MS) / 1000)
                  + " s of work instead of "
                  + conf.shufflePartitions()
                  + " tasks of "
                  + Math.round(meanTaskRunMs(w))
                  + " ms"));
    }
    recs.addAll(
        coalescing(
            conf,
            (long) get(TARGET_BYTES),
            "reduce tasks run " + Math.round(meanTaskRunMs(w)) + " ms each"));
    return diagnosis(worst, flagged, summary, ev, recs);
  }
}
