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
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * AQE_ADVISORY_IGNORED: an advisory partition size is set but parallelismFirst=true makes AQE
 * ignore it.
 */
public final class AqeAdvisoryIgnored extends BuiltinRule {
  public static final String ID = "AQE_ADVISORY_IGNORED";
  static final Grades EXCESS =
      Grades.rising(
          "excessPartitions",
          Unit.RATIO,
          "the worst reduce stage's tasks / the tasks its shuffle bytes need at the advisory size",
          1,
          2,
          8,
          64,
          1,
          1e12);

  public AqeAdvisoryIgnored() {
    this(null);
  }

  private AqeAdvisoryIgnored(RuleSettings s) {
    super(ID, declare(EXCESS), s, AqeAdvisoryIgnored::new);
  }

  @Override
  public String description() {
    return "An AQE advisory partition size is set while coalescePartitions.parallelismFirst=true makes AQE "
        + "ignore it.";
  }

  @Override
  public String documentation() {
    return "Applies when AQE and its coalescing are on, `spark.sql.adaptive.coalescePartitions.parallelismFirst` "
        + "is true and the run sets `spark.sql.adaptive.advisoryPartitionSizeInBytes` (or its legacy fallback "
        + "`spark.sql.adaptive.shuffle.targetPostShuffleInputSize`) itself; unset keys take Spark's defaults "
        + "(AQE on since 3.2, coalescing on, parallelismFirst true). With parallelismFirst=true Spark coalesces "
        + "only down to `coalescePartitions.minPartitionSize` (1 MiB) while keeping the default parallelism, so "
        + "the advisory size the user chose has no effect.\n\n"
        + "Severity comes from `excessPartitions` = tasks of a multi-task reduce stage / "
        + "ceil(its shuffle bytes / advisory size), the worst stage counting; at least LOW whenever the "
        + "condition holds. Recommends `spark.sql.adaptive.coalescePartitions.parallelismFirst=false`.";
  }

  @Override
  Diagnosis evaluate(AppRun run, RunConf conf) {
    if (!conf.aqeEnabled()
        || !conf.coalesceEnabled()
        || !conf.parallelismFirst()
        || !conf.advisoryExplicit()) {
      return none();
    }
    long advisory = Math.max(1, conf.advisoryBytes());
    StageProfile w = null;
    double wExcess = 0;
    List<Integer> flagged = new ArrayList<>();
    for (StageProfile s : reduceStages(run)) {
      if (s.successfulTasks() < 2) {
        continue;
      }
      double needed = Math.max(1, Math.ceil((double) s.shuffleBytesRead() / advisory));
      double excess = s.successfulTasks() / needed;
      if (excess >= 2) {
        flagged.add(s.stageId());
      }
      if (w == null || excess > wExcess) {
        w = s;
        wExcess = excess;
      }
    }
    Severity sev =
        w == null ? Severity.LOW : Severity.max(Severity.LOW, settings.grade(EXCESS, wExcess));
    Map<String, Double> ev = evidence();
    ev.put("advisoryPartitionSizeInBytes", (double) advisory);
    ev.put("excessPartitions", wExcess);
    String summary;
    if (w != null) {
      ev.put("reduceTasks", (double) w.successfulTasks());
      ev.put("shuffleBytesRead", (double) w.shuffleBytesRead());
      ev.put("readBytesPerTask", readPerTask(w));
      ev.put(
          "tasksAtAdvisorySize", Math.max(1, Math.ceil((double) w.shuffleBytesRead() / advisory)));
      summary =
          String.format(
              Locale.ROOT,
              "advisory partition size %s is set but parallelismFirst=true ignores it: %s read %s in %d tasks of %s "
                  + "(%.1fx the %d task(s) the advisory size implies)",
              bytes(advisory),
              stage(w),
              bytes(w.shuffleBytesRead()),
              w.successfulTasks(),
              bytes(readPerTask(w)),
              wExcess,
              (long) Math.max(1, Math.ceil((double) w.shuffleBytesRead() / advisory)));
    } else {
      summary =
          "advisory partition size "
              + bytes(advisory)
              + " is set but parallelismFirst=true ignores it";
    }
    List<Recommendation> recs =
        List.of(
            new Recommendation(
                RunConf.PARALLELISM_FIRST,
                "false",
                "make AQE coalesce towards the advisory size "
                    + Sizes.sparkBytes(advisory)
                    + " the job already sets (parallelismFirst=true, Spark's default, ignores it)"));
    return diagnosis(sev, flagged, summary, ev, recs);
  }
}
