package io.sluice.tuner.tier;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.sluice.contracts.Tier;
import io.sluice.tuner.store.StoreGateway;
import io.sluice.tuner.submission.JobHistory;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The tier decision as the service runs it: the rules in force from the {@link RuleBook}, the job's
 * history from the submission's own read of the job's runs ({@link JobHistory}) or, when that does
 * not cover {@code sluice.tier.history-runs}, through the {@link StoreGateway} ({@code
 * sluice.tier.history-timeout}, 50 ms; unavailable → the job stays on the ESS and the reason says
 * why), capacities from the {@link TierMetricsSource}s. Decisions a rule or deny entry took part in
 * are recorded in the {@link TierStore} by one background thread, directly and in batches of
 * whatever queued meanwhile (not through the store's breaker; a full queue or a failed write drops
 * and counts: recording never delays a submission nor opens the breaker).
 *
 * <p>Meters: {@code sluice.tier.decision} (timer of the whole decision; tags tier, outcome), {@code
 * sluice.tier.records.dropped} (decisions not recorded because the queue was full or the store
 * failed).
 */
public final class TierService implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(TierService.class);
  static final int RECORD_QUEUE = 1024;

  /** Decisions per write of the recorder at most. */
  static final int RECORD_BATCH = 128;

  private final TierProperties props;
  private final RuleBook rules;
  private final TierDecider decider;
  private final StoreGateway gateway;
  private final TierStore store;
  private final MeterRegistry meters;
  private final Clock clock;
  private final Counter dropped;
  private final ThreadPoolExecutor recorder;
  private final BlockingQueue<TierDecision> pending = new ArrayBlockingQueue<>(RECORD_QUEUE);
  private final AtomicBoolean flushing = new AtomicBoolean();

  public TierService(
      TierProperties props,
      RuleBook rules,
      TierDecider decider,
      StoreGateway gateway,
      TierStore store,
      MeterRegistry meters,
      Clock clock) {
    this.props = props;
    this.rules = rules;
    this.decider = decider;
    this.gateway = gateway;
    this.store = store;
    this.meters = meters;
    this.clock = clock;
    this.dropped =
        Counter.builder("sluice.tier.records.dropped")
            .description("Tier decisions not recorded (queue full or store failure)")
            .register(meters);
    this.recorder =
        new ThreadPoolExecutor(
            1,
            1,
            0,
            TimeUnit.MILLISECONDS,
            new ArrayBlockingQueue<>(1),
            r -> {
              Thread t = new Thread(r, "sluice-tier-recorder");
              t.setDaemon(true);
              return t;
            });
  }

  /** Decides for a submission and records the decision (in the background). Never throws. */
  public TierDecision decide(JobRef job, Map<String, String> userConf, String submissionId) {
    return decide(job, userConf, submissionId, JobHistory.NOT_READ);
  }

  /**
   * As {@link #decide(JobRef, Map, String)}, taking the job's history from what the submission
   * already read when it covers {@code sluice.tier.history-runs} runs (no second store call), and
   * keeping the job on the ESS without another call when the submission's read found the store
   * unavailable.
   */
  public TierDecision decide(
      JobRef job, Map<String, String> userConf, String submissionId, JobHistory history) {
    TierDecision d = evaluate(job, userConf, submissionId, history);
    if (d.considered()) {
      if (!pending.offer(d)) {
        dropped.increment();
      } else if (flushing.compareAndSet(false, true)) {
        try {
          recorder.execute(this::flush);
        } catch (RejectedExecutionException e) {
          flushing.set(false); // closed
        }
      }
    }
    return d;
  }

  /**
   * Records the queued decisions, up to {@value #RECORD_BATCH} per write, until none is left;
   * straight to the tier store: a failing write must not count against the breaker. A write that
   * fails drops (and counts) its decisions.
   */
  private void flush() {
    List<TierDecision> batch = new ArrayList<>(RECORD_BATCH);
    while (true) {
      pending.drainTo(batch, RECORD_BATCH);
      if (batch.isEmpty()) {
        flushing.set(false);
        // a decision queued after the drain but before the flag was down: take it ourselves
        if (pending.isEmpty() || !flushing.compareAndSet(false, true)) {
          return;
        }
        continue;
      }
      try {
        store.recordAll(batch);
      } catch (RuntimeException e) {
        dropped.increment(batch.size());
        LOG.warn(
            "{} tier decision(s) not recorded, the first of {}: {}",
            batch.size(),
            batch.get(0).jobKey(),
            e.getMessage());
      }
      batch.clear();
    }
  }

  /** Decides without recording (the API's preview). */
  public TierDecision evaluate(JobRef job, Map<String, String> userConf, String submissionId) {
    return evaluate(job, userConf, submissionId, JobHistory.NOT_READ);
  }

  private TierDecision evaluate(
      JobRef job, Map<String, String> userConf, String submissionId, JobHistory read) {
    long t0 = System.nanoTime();
    TierDecision d;
    long now = clock.millis();
    if (!props.enabled()) {
      d =
          notRolledOut(
              job, submissionId, now, "tier decisions are disabled (sluice.tier.enabled=false)");
    } else {
      RuleSet set = rules.current();
      if (set == null) {
        // never load on the submission path: the background loader retries
        d =
            notRolledOut(
                job, submissionId, now, "rollout rules not loaded (" + rules.loadError() + ")");
      } else {
        d = decider.decide(set, job, userConf, submissionId, now, key -> history(key, read));
      }
    }
    Timer.builder("sluice.tier.decision")
        .description("Tier decisions (rollout, admission, overlay) and their latency")
        .tag("tier", d.tier().name())
        .tag("outcome", d.outcome().name())
        .publishPercentiles(0.5, 0.99)
        .register(meters)
        .record(System.nanoTime() - t0, TimeUnit.NANOSECONDS);
    return d;
  }

  private TierDecider.History history(String jobKey, JobHistory read) {
    int n = props.historyRuns();
    if (read.isUnavailable()) {
      return TierDecider.History.unavailable(read.unavailable());
    }
    if (read.covers(n)) {
      return TierDecider.History.of(JobVolume.of(read.newestFirst(), n));
    }
    try {
      return TierDecider.History.of(
          gateway.call(
              "tier-history",
              props.historyTimeout(),
              (s, l) -> JobVolume.of(s.runsOfJob(jobKey, n), n)));
    } catch (StoreGateway.Unavailable e) {
      return TierDecider.History.unavailable(e.reason());
    }
  }

  public List<TierDecision> decisions(String jobKey, int limit) {
    return gateway.call(
        "tier-decisions", StoreGateway.Budget.READ, (s, l) -> store.decisions(jobKey, limit));
  }

  /** Admissions and refusals decided in [from, to), per tier and queue. */
  public List<TierStore.DecisionCount> decisionCounts(long from, long to) {
    return gateway.call(
        "tier-decision-counts", StoreGateway.Budget.READ, (s, l) -> store.decisionCounts(from, to));
  }

  public List<AuditEntry> audit(int limit) {
    return gateway.call("tier-audit", StoreGateway.Budget.READ, (s, l) -> store.audit(limit));
  }

  public RuleBook rules() {
    return rules;
  }

  private static TierDecision notRolledOut(JobRef job, String submissionId, long now, String why) {
    return new TierDecision(
        job.jobKey(),
        submissionId,
        now,
        job.cluster(),
        job.queue(),
        Tier.ESS,
        Tier.ESS,
        TierDecision.Outcome.NOT_ROLLED_OUT,
        null,
        null,
        why,
        -1,
        -1,
        -1,
        "",
        Map.of());
  }

  /** Waits (bounded) for queued recordings; for tests and shutdown. */
  boolean drain(long timeoutMs) throws InterruptedException {
    long end = System.currentTimeMillis() + timeoutMs;
    while (System.currentTimeMillis() < end) {
      if (pending.isEmpty()
          && !flushing.get()
          && recorder.getQueue().isEmpty()
          && recorder.getActiveCount() == 0) {
        return true;
      }
      Thread.sleep(5);
    }
    return false;
  }

  @Override
  public void close() {
    recorder.shutdown();
    try {
      recorder.awaitTermination(2, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    recorder.shutdownNow();
  }
}
