package io.sluice.rules.builtin;

import io.sluice.config.Unit;
import io.sluice.model.AppRun;
import io.sluice.model.Diagnosis;
import io.sluice.model.Recommendation;
import io.sluice.model.Severity;
import io.sluice.model.StageProfile;
import io.sluice.rules.RuleSettings;
import io.sluice.rules.RunConf;
import io.sluice.rules.Sizes;
import io.sluice.rules.Threshold;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * DYNAMIC_ALLOCATION_WITHOUT_ESS: dynamic allocation with shuffle output living only on executors.
 */
public final class DynamicAllocationWithoutEss extends BuiltinRule {
  public static final String ID = "DYNAMIC_ALLOCATION_WITHOUT_ESS";
  static final Threshold MIN_WRITE =
      Threshold.of(
          "minShuffleWriteBytes",
          Unit.BYTES,
          Sizes.MIB,
          0,
          Sizes.TIB * 1024,
          "Runs that wrote less shuffle data than this get at most LOW.");

  public DynamicAllocationWithoutEss() {
    this(null);
  }

  private DynamicAllocationWithoutEss(RuleSettings s) {
    super(ID, declare(MIN_WRITE), s, DynamicAllocationWithoutEss::new);
  }

  @Override
  public String description() {
    return "Dynamic allocation is on but no external shuffle service keeps shuffle output when executors go.";
  }

  @Override
  public String documentation() {
    return "Applies when `spark.dynamicAllocation.enabled` is true, `spark.shuffle.service.enabled` is false and "
        + "no remote shuffle (a non-default `spark.shuffle.manager` or `spark.shuffle.sort.io.plugin.class`) holds "
        + "the data. Severity depends on what keeps shuffle output alive (defaults: shuffle tracking on since "
        + "Spark 3.4, off before; tracking timeout infinity; decommission off):\n\n"
        + "- no shuffle tracking and no decommission shuffle-block migration: CRITICAL (released executors take "
        + "their map output with them; stock Spark refuses to start like this);\n"
        + "- no shuffle tracking, decommission migration only: SEVERE (output survives only graceful "
        + "decommission, after copying it);\n"
        + "- shuffle tracking with a finite `spark.dynamicAllocation.shuffleTracking.timeout`: SEVERE "
        + "(executors are released after the timeout with their output);\n"
        + "- shuffle tracking with the default infinite timeout: MODERATE (executors holding shuffle data are "
        + "never released, so dynamic allocation cannot scale down shuffle-heavy jobs).\n\n"
        + "A run that wrote less than `minShuffleWriteBytes` of shuffle data gets at most LOW. Recommends "
        + "`spark.dynamicAllocation.shuffleTracking.enabled=true` when tracking is off; the lasting fix is "
        + "an external shuffle service on the cluster (`spark.shuffle.service.enabled`, not recommended "
        + "automatically because the nodes must run one).";
  }

  @Override
  Diagnosis evaluate(AppRun run, RunConf conf) {
    if (!conf.dynamicAllocation() || conf.shuffleService() || conf.remoteShuffle()) {
      return none();
    }
    boolean tracking = conf.shuffleTracking();
    long timeout = conf.shuffleTrackingTimeoutMs();
    boolean migration = conf.decommissionShuffleMigration();
    Severity sev;
    String why;
    if (!tracking && !migration) {
      sev = Severity.CRITICAL;
      why =
          "neither shuffle tracking nor decommission shuffle-block migration keeps map output when an executor "
              + "is released";
    } else if (!tracking) {
      sev = Severity.SEVERE;
      why =
          "shuffle tracking is off; map output survives only graceful decommission, after being copied";
    } else if (timeout >= 0) {
      sev = Severity.SEVERE;
      why =
          "shuffle tracking releases executors holding map output after "
              + timeout / 1000.0
              + " s, and the "
              + "output with them";
    } else {
      sev = Severity.MODERATE;
      why =
          "shuffle tracking keeps every executor holding map output (timeout infinity), so dynamic allocation "
              + "cannot release them";
    }
    long written = 0;
    List<Integer> stages = new ArrayList<>();
    for (StageProfile s : run.stages()) {
      if (s.shuffleWriteBytes() > 0) {
        written += s.shuffleWriteBytes();
        stages.add(s.stageId());
      }
    }
    if (written < get(MIN_WRITE)) {
      sev = Severity.LOW;
    }
    Map<String, Double> ev = evidence();
    ev.put("shuffleWriteBytes", (double) written);
    ev.put("shuffleTracking", tracking ? 1.0 : 0.0);
    ev.put("shuffleTrackingTimeoutMs", (double) timeout);
    ev.put("decommissionShuffleMigration", migration ? 1.0 : 0.0);
    String summary =
        "dynamic allocation without an external shuffle service ("
            + bytes(written)
            + " of shuffle data written): "
            + why;
    List<Recommendation> recs = new ArrayList<>();
    if (!tracking) {
      recs.add(
          new Recommendation(
              RunConf.SHUFFLE_TRACKING,
              "true",
              "keep executors that hold live shuffle output instead of losing it on scale-down"));
    }
    return diagnosis(sev, stages, summary, ev, recs);
  }
}
