package io.sluice.tuner.jobs;

import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.model.AppRun;
import io.sluice.rules.RuleEngine;
import io.sluice.store.HistoryStore;
import io.sluice.store.RunsVersion;
import io.sluice.tuner.TunerMetrics;
import io.sluice.tuner.TunerProperties;
import io.sluice.tuner.policy.Decision;
import io.sluice.tuner.policy.Evaluation;
import io.sluice.tuner.policy.JobState;
import io.sluice.tuner.policy.LaunchFailure;
import io.sluice.tuner.policy.Memory;
import io.sluice.tuner.policy.Outcome;
import io.sluice.tuner.policy.Rejection;
import io.sluice.tuner.policy.TuningPolicy;
import io.sluice.tuner.store.DecisionLog;
import io.sluice.tuner.store.StoreGateway;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Service;

/**
 * A job's portrait through the policy: reads the newest runs (re-diagnosed with the service's rules
 * unless {@code sluice.tuner.rediagnose=false}), the decision log and the freeze flag, decides, and
 * logs the new decisions and the job's state in the job index — all in one guarded store call.
 * {@link #view}, {@link #read} and {@link #replay} decide the same way and write nothing, for
 * reads; the first two keep their replays in a {@link ReplayCache}.
 */
@Service
public class JobTuning {
  private static final Logger LOG = LoggerFactory.getLogger(JobTuning.class);

  /** What the policy decided, with the runs it saw (newest first). */
  public record Snapshot(Outcome outcome, List<AppRun> runs, boolean frozen) {
    public Snapshot {
      runs = List.copyOf(runs);
    }
  }

  private final StoreGateway gateway;
  private final TuningPolicy policy;
  private final RuleEngine rules;
  private final TunerProperties props;
  private final TunerMetrics metrics;
  private final Clock clock;
  private final ReplayCache cache;

  public JobTuning(
      StoreGateway gateway,
      TuningPolicy policy,
      RuleEngine rules,
      TunerProperties props,
      TunerMetrics metrics,
      Clock clock,
      MeterRegistry meters) {
    this.cache = new ReplayCache(props.replayCacheRuns(), meters);
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
  public Snapshot evaluate(
      String op,
      StoreGateway.Budget budget,
      String jobKey,
      Map<String, String> userConf,
      int window) {
    return evaluate(op, budget, jobKey, userConf, window, Map.of());
  }

  /**
   * As {@link #evaluate(String, StoreGateway.Budget, String, Map, int)} with an operator trial
   * pending.
   */
  public Snapshot evaluate(
      String op,
      StoreGateway.Budget budget,
      String jobKey,
      Map<String, String> userConf,
      int window,
      Map<String, String> operatorTrial) {
    return gateway.call(
        op, budget, (store, log) -> submit(store, log, jobKey, userConf, window, operatorTrial));
  }

  /**
   * The submission path's replay, in its one store call: answered from the {@link ReplayCache}
   * while the job's runs, logged decisions, frozen flag, operator trial and the submitter's confs
   * are the ones a recorded replay was made from (three small reads, nothing written); otherwise
   * replayed, its new decisions logged and the job's state recorded, and kept once the log already
   * held all its decisions (before that, kept only as the job's last known state).
   */
  private Snapshot submit(
      HistoryStore store,
      DecisionLog log,
      String jobKey,
      Map<String, String> userConf,
      int window,
      Map<String, String> operatorTrial) {
    int limit = Math.max(window, props.portraitSize());
    ReplayCache.Key key = new ReplayCache.Key(jobKey, limit, userConf);
    ReplayCache.Inputs inputs = inputs(store, log, jobKey, operatorTrial);
    List<Decision> logged = inputs.logged();
    boolean frozen = inputs.frozen();
    Optional<Replay> kept = cache.getRecorded(key, inputs);
    if (kept.isPresent()) {
      return kept.get().snapshot();
    }
    Replay r = replay(store, jobKey, limit, userConf, operatorTrial, logged, frozen);
    List<Decision> fresh = DecisionLog.unlogged(r.snapshot().outcome().decisions(), logged);
    List<Decision> added = fresh.isEmpty() ? List.of() : log.record(jobKey, fresh, clock.millis());
    metrics.logged(added);
    if (recordState(store, jobKey, r.snapshot()) && added.isEmpty()) {
      cache.putRecorded(key, inputs, r);
    } else {
      cache.put(key, inputs, r); // not answered from by the next submission: for lastKnown
    }
    return r.snapshot();
  }

  /**
   * What the service last knew of the job, for a submission the store cannot answer in time: the
   * replay last kept for the same job, window and user confs ({@link ReplayCache#lastKnown}),
   * decided again without the store and without trying anything new. The answer carries the job's
   * kept overlay only: a change the kept replay proposed is left out (it may already have been
   * handed to another submission, and its run not yet stored), as is a pending trial that a
   * submission would run once more, and an operator trial is not consumed. A frozen job stays
   * frozen (a launch-failure freeze keeps its empty overlay). States: FROZEN, NEW, DISABLED and
   * STABLE as kept; anything else TUNING. Empty when no replay of the job is kept.
   */
  public Optional<Snapshot> lastKnown(String jobKey, Map<String, String> userConf, int window) {
    int limit = Math.max(window, props.portraitSize());
    return cache
        .lastKnown(new ReplayCache.Key(jobKey, limit, userConf))
        .map(r -> keptOnly(r, userConf));
  }

  private Snapshot keptOnly(Replay r, Map<String, String> userConf) {
    Snapshot last = r.snapshot();
    Outcome kept =
        policy.decide(
            last.runs(),
            memory(r.logged()),
            userConf,
            props.enabled() ? TuningPolicy.Mode.FROZEN : TuningPolicy.Mode.DISABLED,
            Map.of());
    JobState state =
        switch (last.outcome().state()) {
          case FROZEN, NEW, DISABLED, STABLE -> last.outcome().state();
          case TUNING -> last.frozen() ? JobState.FROZEN : JobState.TUNING;
        };
    List<String> reasons = new ArrayList<>(kept.reasons());
    if (state != JobState.FROZEN) { // replayed frozen to keep the overlay, not frozen itself
      reasons.removeIf(why -> why.startsWith("frozen:"));
    }
    Outcome o =
        new Outcome(
            state,
            kept.overlay(),
            List.of(),
            reasons,
            kept.verdicts(),
            kept.rejections(),
            List.of());
    return new Snapshot(o, last.runs(), last.frozen());
  }

  /**
   * The same decision as {@link #evaluate}, for reads (history, recommendation): nothing is
   * written, the decisions are logged by the next submission that replays the same runs.
   */
  public Snapshot view(
      String op,
      StoreGateway.Budget budget,
      String jobKey,
      int window,
      Map<String, String> operatorTrial) {
    return gateway.call(
        op, budget, (store, log) -> read(store, log, jobKey, window, operatorTrial).snapshot());
  }

  /**
   * As {@link #replay} without a user conf, for read-only views, answered from the {@link
   * ReplayCache} while the job's runs, logged decisions, frozen flag and the operator trial are the
   * ones the kept replay was made from (the runs' {@link RunsVersion} and the log are read on every
   * call). Runs on a store thread.
   */
  public Replay read(
      HistoryStore store,
      DecisionLog log,
      String jobKey,
      int window,
      Map<String, String> operatorTrial) {
    int limit = Math.max(window, props.portraitSize());
    ReplayCache.Key key = new ReplayCache.Key(jobKey, limit);
    ReplayCache.Inputs inputs = inputs(store, log, jobKey, operatorTrial);
    List<Decision> logged = inputs.logged();
    boolean frozen = inputs.frozen();
    return cache
        .get(key, inputs)
        .orElseGet(
            () -> {
              Replay r = replay(store, jobKey, limit, Map.of(), operatorTrial, logged, frozen);
              cache.put(key, inputs, r);
              return r;
            });
  }

  /** What a job's replay is made from, read now (three small queries). */
  private static ReplayCache.Inputs inputs(
      HistoryStore store, DecisionLog log, String jobKey, Map<String, String> operatorTrial) {
    // the version first: a run stored while the replay is made is newer than the version, so the
    // next read misses
    RunsVersion version = store.runsVersion(jobKey);
    return new ReplayCache.Inputs(
        version, log.decisions(jobKey), log.frozen(jobKey), operatorTrial);
  }

  /** A replay of the job's portrait, with the decisions the log held before it. */
  public record Replay(Snapshot snapshot, List<Decision> logged) {
    public Replay {
      logged = List.copyOf(logged);
    }
  }

  /**
   * The policy over the job's newest runs, the decision log and the freeze flag, writing nothing
   * and keeping nothing (the writing paths replay with it; read-only views use {@link #read}). Runs
   * on a store thread (inside a {@link StoreGateway} call).
   *
   * @param window how many newest runs to replay (at least the portrait size)
   * @param userConf the Spark confs the user set explicitly (empty for views)
   */
  public Replay replay(
      HistoryStore store,
      DecisionLog log,
      String jobKey,
      int window,
      Map<String, String> userConf,
      Map<String, String> operatorTrial) {
    return replay(
        store,
        jobKey,
        Math.max(window, props.portraitSize()),
        userConf,
        operatorTrial,
        log.decisions(jobKey),
        log.frozen(jobKey));
  }

  /**
   * The policy over the job's newest {@code limit} runs, with the log's decisions and freeze flag
   * as given.
   */
  private Replay replay(
      HistoryStore store,
      String jobKey,
      int limit,
      Map<String, String> userConf,
      Map<String, String> operatorTrial,
      List<Decision> logged,
      boolean frozen) {
    List<AppRun> runs = owned(store.runsOfJob(jobKey, limit));
    if (props.rediagnose()) {
      List<AppRun> diagnosed = new ArrayList<>(runs.size());
      for (AppRun r : runs) {
        diagnosed.add(r.withDiagnoses(rules.diagnose(r)));
      }
      runs = diagnosed;
    }
    TuningPolicy.Mode mode =
        !props.enabled()
            ? TuningPolicy.Mode.DISABLED
            : frozen ? TuningPolicy.Mode.FROZEN : TuningPolicy.Mode.ACTIVE;
    Outcome o = policy.decide(runs, memory(logged), userConf, mode, operatorTrial);
    return new Replay(new Snapshot(o, runs, frozen), logged);
  }

  /**
   * Keeps the job index's state current; a failure only logs (the evaluation itself stands) and
   * answers false.
   */
  private boolean recordState(HistoryStore store, String jobKey, Snapshot s) {
    try {
      store.recordJobState(jobKey, s.outcome().state().name(), s.frozen(), clock.millis());
      return true;
    } catch (RuntimeException e) {
      LOG.warn("could not record the state of job {} in the job index: {}", jobKey, e.getMessage());
      return false;
    }
  }

  /** The queue of the job's newest run (empty when it has none). */
  public Optional<String> queueOf(String jobKey) {
    return gateway.call(
        "queue",
        StoreGateway.Budget.READ,
        (store, log) -> {
          List<AppRun> runs = store.runsOfJob(jobKey, 1);
          return runs.isEmpty()
              ? Optional.<String>empty()
              : Optional.ofNullable(runs.get(0).queue());
        });
  }

  /**
   * Freezes or unfreezes a job (stored in the decision log); answers whether it was frozen before.
   */
  public boolean setFrozen(String jobKey, boolean frozen) {
    return gateway.call(
        frozen ? "freeze" : "unfreeze",
        StoreGateway.Budget.READ,
        (store, log) -> {
          boolean before = log.frozen(jobKey);
          log.setFrozen(jobKey, frozen, clock.millis());
          cache.forget(jobKey); // a stale answer must not predate the freeze
          return before;
        });
  }

  /**
   * A job key is bound to the cluster, queue and user of its oldest run in view: runs of the same
   * key from anyone else (a user who set another team's {@code spark.sluice.job.key}) are left out
   * of the portrait, so they cannot steer that job's tuning. Runs are newest first.
   */
  static List<AppRun> owned(List<AppRun> runs) {
    if (runs.size() < 2) {
      return runs;
    }
    AppRun owner = runs.get(runs.size() - 1);
    List<AppRun> out = new ArrayList<>(runs.size());
    for (AppRun r : runs) {
      if (Objects.equals(r.cluster(), owner.cluster())
          && Objects.equals(r.queue(), owner.queue())
          && Objects.equals(r.user(), owner.user())) {
        out.add(r);
      }
    }
    return out;
  }

  /** Rollbacks, the last re-open and the failed launches as the log remembers them. */
  static Memory memory(List<Decision> logged) {
    long lastReopen = 0;
    List<Rejection> rejections = new ArrayList<>();
    Map<String, List<Decision>> launches = new java.util.LinkedHashMap<>();
    for (Decision d : logged) {
      if (d.kind() == Evaluation.LAUNCH_FAILED) {
        launches.computeIfAbsent(d.runKey(), k -> new ArrayList<>()).add(d);
      } else if (d.kind() == Evaluation.REOPENED) {
        lastReopen = Math.max(lastReopen, d.runStart());
      } else if (d.kind() == Evaluation.ROLLED_BACK && !d.direction().isEmpty()) {
        rejections.add(
            new Rejection(d.key(), d.direction(), d.value(), d.runKey(), d.runStart(), d.reason()));
      }
    }
    List<LaunchFailure> failures = new ArrayList<>();
    launches.forEach(
        (runKey, rows) -> {
          Map<String, String> overlay = new java.util.TreeMap<>();
          rows.forEach(r -> overlay.put(r.key(), r.value()));
          Decision first = rows.get(0);
          failures.add(
              new LaunchFailure(
                  runKey.substring(LAUNCH_PREFIX.length()),
                  first.runStart(),
                  overlay,
                  first.evidence().getOrDefault("exitCode", 0.0).intValue(),
                  first.reason()));
        });
    return new Memory(rejections, lastReopen, failures);
  }

  private static final String LAUNCH_PREFIX = "launch/";

  /**
   * Records a launch that failed before its application ran (one LAUNCH_FAILED row per key of the
   * overlay Sluice had added) and replays the job, so the rollback is logged at once. Answers the
   * job's outcome after it.
   */
  public Snapshot launchFailed(
      String jobKey,
      String submissionId,
      Map<String, String> overlay,
      int exitCode,
      String detail) {
    long now = clock.millis();
    LaunchFailure f = new LaunchFailure(submissionId, now, overlay, exitCode, detail);
    List<Decision> rows = new ArrayList<>();
    f.overlay()
        .forEach(
            (k, v) ->
                rows.add(
                    new Decision(
                        f.runKey(),
                        now,
                        Evaluation.LAUNCH_FAILED,
                        k,
                        "",
                        v,
                        f.detail(),
                        Map.of("exitCode", (double) exitCode))));
    return gateway.call(
        "launch-failure",
        StoreGateway.Budget.READ,
        (store, log) -> {
          log.record(jobKey, rows, now);
          Replay r = replay(store, log, jobKey, 0, Map.of(), Map.of());
          metrics.logged(log.record(jobKey, r.snapshot().outcome().decisions(), now));
          recordState(store, jobKey, r.snapshot());
          return r.snapshot();
        });
  }
}
