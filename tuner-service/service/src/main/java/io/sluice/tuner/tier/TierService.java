package io.sluice.tuner.tier;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.sluice.contracts.Tier;
import io.sluice.tuner.store.StoreGateway;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The tier decision as the service runs it: the rules in force from the {@link RuleBook}, the job's
 * history through the {@link StoreGateway} ({@code sluice.tier.history-timeout}, 50 ms; unavailable
 * → the job stays on the ESS and the reason says why), capacities from the {@link
 * TierMetricsSource}s. Decisions a rule or deny entry took part in are recorded in the {@link
 * TierStore} by one background thread, directly (not through the store's breaker; a full queue or a
 * failed write drops and counts: recording never delays a submission nor opens the breaker).
 *
 * <p>Meters: {@code sluice.tier.decision} (timer of the whole decision; tags tier, outcome), {@code
 * sluice.tier.records.dropped} (decisions not recorded because the queue was full or the store
 * failed).
 */
public final class TierService implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(TierService.class);
  static final int RECORD_QUEUE = 1024;

  private final TierProperties props;
  private final RuleBook rules;
  private final TierDecider decider;
  private final StoreGateway gateway;
  private final TierStore store;
  private final MeterRegistry meters;
  private final Clock clock;
  private final Counter dropped;
  private final ThreadPoolExecutor recorder;

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
            new ArrayBlockingQueue<>(RECORD_QUEUE),
            r -> {
              Thread t = new Thread(r, "sluice-tier-recorder");
              t.setDaemon(true);
              return t;
            });
  }

  /** Decides for a submission and records the decision (in the background). Never throws. */
  public TierDecision decide(JobRef job, Map<String, String> userConf, String submissionId) {
    TierDecision d = evaluate(job, userConf, submissionId);
    if (d.considered()) {
      try {
        recorder.execute(
            () -> {
              try {
                store.record(
                    d); // straight to the tier store: a failing write must not count against the
                // breaker
              } catch (RuntimeException e) {
                dropped.increment();
                LOG.warn("tier decision of {} not recorded: {}", d.jobKey(), e.getMessage());
              }
            });
      } catch (RejectedExecutionException e) {
        dropped.increment();
      }
    }
    return d;
  }

  /** Decides without recording (the API's preview). */
  public TierDecision evaluate(JobRef job, Map<String, String> userConf, String submissionId) {
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
        d = decider.decide(set, job, userConf, submissionId, now, this::history);
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

  private TierDecider.History history(String jobKey) {
    int n = props.historyRuns();
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
      if (recorder.getQueue().isEmpty() && recorder.getActiveCount() == 0) {
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
