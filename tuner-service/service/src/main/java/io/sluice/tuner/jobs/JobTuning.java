package io.sluice.tuner.jobs;

import io.sluice.model.AppRun;
import io.sluice.rules.RuleEngine;
import io.sluice.tuner.TunerMetrics;
import io.sluice.tuner.TunerProperties;
import io.sluice.tuner.policy.Decision;
import io.sluice.tuner.policy.Evaluation;
import io.sluice.tuner.policy.Memory;
import io.sluice.tuner.policy.Outcome;
import io.sluice.tuner.policy.Rejection;
import io.sluice.tuner.policy.TuningPolicy;
import io.sluice.tuner.store.StoreGateway;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.springframework.stereotype.Service;

/**
 * A job's portrait through the policy: reads the newest runs (re-diagnosed with the service's rules unless
 * {@code sluice.tuner.rediagnose=false}), the decision log and the freeze flag, decides, and logs the new
 * decisions — all in one guarded store call. Reads ({@link #view}) decide the same way and write nothing.
 */
@Service
public class JobTuning {
  /** What the policy decided, with the runs it saw (newest first). */
  public record Snapshot(Outcome outcome, List<AppRun> runs, boolean frozen) {}

  private final StoreGateway gateway;
  private final TuningPolicy policy;
  private final RuleEngine rules;
  private final TunerProperties props;
  private final TunerMetrics metrics;
  private final Clock clock;

  public JobTuning(StoreGateway gateway, TuningPolicy policy, RuleEngine rules, TunerProperties props,
      TunerMetrics metrics, Clock clock) {
    this.gateway = gateway;
    this.policy = policy;
    this.rules = rules;
    this.props = props;
    this.metrics = metrics;
    this.clock = clock;
  }

  /**
   * @param window how many newest runs to replay (at least the portrait size)
   * @throws StoreGateway.Unavailable when the store cannot answer within the budget
   */
  public Snapshot evaluate(String op, StoreGateway.Budget budget, String jobKey, Map<String, String> userConf,
      int window) {
    return evaluate(op, budget, jobKey, userConf, window, Map.of());
  }

  /** As {@link #evaluate(String, StoreGateway.Budget, String, Map, int)} with an operator trial pending. */
  public Snapshot evaluate(String op, StoreGateway.Budget budget, String jobKey, Map<String, String> userConf,
      int window, Map<String, String> operatorTrial) {
    return run(op, budget, jobKey, userConf, window, operatorTrial, true);
  }

  /**
   * The same decision as {@link #evaluate}, for reads (history, recommendation): nothing is written, the decisions are
   * logged by the next submission that replays the same runs.
   */
  public Snapshot view(String op, StoreGateway.Budget budget, String jobKey, int window,
      Map<String, String> operatorTrial) {
    return run(op, budget, jobKey, Map.of(), window, operatorTrial, false);
  }

  private Snapshot run(String op, StoreGateway.Budget budget, String jobKey, Map<String, String> userConf,
      int window, Map<String, String> operatorTrial, boolean record) {
    Snapshot s = gateway.call(op, budget, (store, log) -> {
      List<AppRun> runs = owned(store.runsOfJob(jobKey, Math.max(window, props.getPortraitSize())));
      if (props.isRediagnose()) {
        List<AppRun> diagnosed = new ArrayList<>(runs.size());
        for (AppRun r : runs) {
          diagnosed.add(r.withDiagnoses(rules.diagnose(r)));
        }
        runs = diagnosed;
      }
      boolean frozen = log.frozen(jobKey);
      TuningPolicy.Mode mode = !props.isEnabled() ? TuningPolicy.Mode.DISABLED
          : frozen ? TuningPolicy.Mode.FROZEN : TuningPolicy.Mode.ACTIVE;
      Outcome o = policy.decide(runs, memory(log.decisions(jobKey)), userConf, mode, operatorTrial);
      if (record) {
        metrics.logged(log.record(jobKey, o.decisions(), clock.millis()));
      }
      return new Snapshot(o, runs, frozen);
    });
    return s;
  }

  /** The queue of the job's newest run (empty when it has none). */
  public java.util.Optional<String> queueOf(String jobKey) {
    return gateway.call("queue", StoreGateway.Budget.READ, (store, log) -> {
      List<AppRun> runs = store.runsOfJob(jobKey, 1);
      return runs.isEmpty() ? java.util.Optional.<String>empty() : java.util.Optional.ofNullable(runs.get(0).queue());
    });
  }

  /** Freezes or unfreezes a job (stored in the decision log); answers whether it was frozen before. */
  public boolean setFrozen(String jobKey, boolean frozen) {
    return gateway.call(frozen ? "freeze" : "unfreeze", StoreGateway.Budget.READ, (store, log) -> {
      boolean before = log.frozen(jobKey);
      log.setFrozen(jobKey, frozen, clock.millis());
      return before;
    });
  }

  /**
   * A job key is bound to the cluster, queue and user of its oldest run in view: runs of the same key from anyone
   * else (a user who set another team's {@code spark.sluice.job.key}) are left out of the portrait, so they cannot
   * steer that job's tuning. Runs are newest first.
   */
  static List<AppRun> owned(List<AppRun> runs) {
    if (runs.size() < 2) {
      return runs;
    }
    AppRun owner = runs.get(runs.size() - 1);
    List<AppRun> out = new ArrayList<>(runs.size());
    for (AppRun r : runs) {
      if (java.util.Objects.equals(r.cluster(), owner.cluster()) && java.util.Objects.equals(r.queue(), owner.queue())
          && java.util.Objects.equals(r.user(), owner.user())) {
        out.add(r);
      }
    }
    return out;
  }

  /** Rollbacks and the last re-open as the log remembers them. */
  static Memory memory(List<Decision> logged) {
    long lastReopen = 0;
    List<Rejection> rejections = new ArrayList<>();
    for (Decision d : logged) {
      if (d.kind() == Evaluation.REOPENED) {
        lastReopen = Math.max(lastReopen, d.runStart());
      } else if (d.kind() == Evaluation.ROLLED_BACK && !d.direction().isEmpty()) {
        rejections.add(new Rejection(d.key(), d.direction(), d.value(), d.runKey(), d.runStart(), d.reason()));
      }
    }
    return new Memory(rejections, lastReopen);
  }
}
