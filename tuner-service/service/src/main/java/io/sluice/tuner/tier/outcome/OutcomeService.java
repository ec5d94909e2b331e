package io.sluice.tuner.tier.outcome;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.contracts.Tier;
import io.sluice.tuner.TagValues;
import io.sluice.tuner.store.StoreAccess;
import io.sluice.tuner.store.StoreGateway;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes run reports: merges each into its attempt ({@link OutcomeMerge}), stores the attempt and
 * its counts in the {@link OutcomeStore}, adds the counts to {@code sluice.tier.outcomes} (tags
 * tier, queue, outcome, reason — the store's totals are added by a background thread once the store
 * answers, so the Prometheus counters carry on after a restart), and checks the alert rules for the
 * tier and queue a fallback or failure was counted for. A report about attempt N > 1 closes the
 * run's earlier attempts that have no final status as {@code FAILED} (source {@code INFERRED}): on
 * YARN, a second attempt means the first one failed. Reports are serialised (one lock): they come
 * once or twice per run, never on the submission path.
 *
 * <p>Every call reaches the store through a {@link StoreAccess} (in the service: the {@link
 * StoreGateway}'s store threads, {@code sluice.tier.outcomes.store-timeout} and the store's circuit
 * breaker), so a hung or dead store makes the API answer 503 at the time limit instead of holding
 * its threads. A report that is not stored is counted in {@code sluice.tier.outcome.reports.lost}
 * (tag reason: timeout, circuit_open, busy or error); one abandoned at the time limit is skipped
 * when its turn comes, unless it had already started writing (then it may still be stored once the
 * store answers, and is counted both ways). {@link #prune} deletes rows older than {@code
 * sluice.tier.outcomes.retention}.
 */
public final class OutcomeService {
  private static final Logger LOG = LoggerFactory.getLogger(OutcomeService.class);

  /**
   * Rows deleted per store call of a prune (each a separate call, so none holds the store for
   * long).
   */
  static final int PRUNE_BATCH = 1_000;

  /** What a prune deleted, and the cut-off (epoch ms). */
  public record Pruned(long before, long runs, long events, long alerts) {
    public boolean any() {
      return runs + events + alerts > 0;
    }
  }

  private final StoreAccess<OutcomeStore> store;
  private final Duration retention;
  private final TierAlertProperties props;
  private final AlertWebhook webhook;
  private final MeterRegistry meters;
  private final Clock clock;

  /** Counts added by this process, per meter (for {@link #restoreTotals()}). */
  private final Map<String, Long> countedHere = new HashMap<>();

  private volatile boolean restored;

  private final TagValues queueTags;
  private final TagValues reasonTags;

  public OutcomeService(
      StoreAccess<OutcomeStore> store,
      TierOutcomeProperties outcomes,
      TierAlertProperties props,
      AlertWebhook webhook,
      MeterRegistry meters,
      Clock clock) {
    outcomes.check(props);
    this.store = store;
    this.retention = outcomes.retention();
    this.props = props;
    this.webhook = webhook;
    this.meters = meters;
    this.clock = clock;
    this.queueTags =
        new TagValues(java.util.Set.copyOf(outcomes.metricQueues()), outcomes.maxMetricQueues());
    this.reasonTags = new TagValues(java.util.Set.of(), outcomes.maxMetricReasons());
    props.fallbackRule(); // fail start-up on an invalid rule, naming the value
    props.failureRule();
  }

  /** True once {@link #restoreTotals()} has succeeded. */
  public boolean restored() {
    return restored;
  }

  /**
   * Adds the store's all-time totals to {@code sluice.tier.outcomes}, minus what this process
   * already counted (so nothing is counted twice), once. Called by {@link OutcomeBackground}: never
   * on start-up's path, since a store that does not answer must not stop the service from starting.
   */
  public void restoreTotals() {
    restoreTotals(store);
  }

  /**
   * As {@link #restoreTotals()} through another way to the store: the background restore goes to
   * the store directly, so that retrying against a store that is down does not count against the
   * store's circuit breaker (which would open it for the submissions).
   */
  public void restoreTotals(StoreAccess<OutcomeStore> via) {
    call(
        via,
        "tier-outcome-totals",
        st -> {
          if (restored) {
            return null;
          }
          for (OutcomeStore.CountRow c : st.totals()) {
            String key = key(c.tier(), c.queue(), c.kind(), c.reason());
            long missing = c.count() - countedHere.getOrDefault(key, 0L);
            if (missing > 0) {
              outcomes(c.tier(), c.queue(), c.kind(), c.reason()).increment(missing);
            }
          }
          restored = true;
          return null;
        });
  }

  /**
   * Deletes attempts last updated, counted events and alerts raised more than the retention ago, in
   * batches of {@link #PRUNE_BATCH} (one store call each); the events are added to the stored
   * all-time totals first.
   */
  public Pruned prune() {
    long before = clock.millis() - retention.toMillis();
    return new Pruned(
        before,
        drain("tier-outcome-prune-runs", st -> st.pruneRuns(before, PRUNE_BATCH)),
        drain("tier-outcome-prune-events", st -> st.pruneEvents(before, PRUNE_BATCH)),
        drain("tier-outcome-prune-alerts", st -> st.pruneAlerts(before, PRUNE_BATCH)));
  }

  private long drain(String op, Function<OutcomeStore, Integer> batch) {
    long total = 0;
    int n;
    do {
      n = call(op, batch);
      total += n;
    } while (n >= PRUNE_BATCH);
    return total;
  }

  /**
   * Merges, stores and counts the report; returns the attempt as now known. Store failures are
   * thrown.
   */
  public RunOutcome report(RunReport r) {
    Counter.builder("sluice.tier.outcome.reports")
        .description("Tier run reports received, by reporter")
        .tag("source", r.source().name())
        .register(meters)
        .increment();
    AtomicBoolean givenUp = new AtomicBoolean();
    try {
      // null: the caller gave up before the report's turn came (it is already counted as lost)
      return call("tier-outcome-report", st -> givenUp.get() ? null : report(st, r));
    } catch (RuntimeException e) {
      givenUp.set(true);
      Counter.builder("sluice.tier.outcome.reports.lost")
          .description(
              "Tier run reports not stored: the store did not answer in time or at all, by reason")
          .tag("reason", e instanceof StoreGateway.Unavailable u ? u.reason() : "error")
          .register(meters)
          .increment();
      throw e;
    }
  }

  private RunOutcome report(OutcomeStore st, RunReport r) {
    long now = clock.millis();
    if (r.attempt() > 1) {
      for (RunOutcome earlier : st.attempts(r.runKey())) {
        if (earlier.attempt() < r.attempt() && !earlier.status().isFinal()) {
          apply(
              st,
              earlier,
              new RunReport(
                  null,
                  null,
                  earlier.attempt(),
                  RunReport.Source.INFERRED,
                  null,
                  null,
                  null,
                  null,
                  null,
                  null,
                  null,
                  null,
                  RunReport.Status.FAILED,
                  null),
              now);
        }
      }
    }
    return apply(st, st.run(r.runKey(), r.attempt()).orElse(null), r, now);
  }

  private RunOutcome apply(OutcomeStore store, RunOutcome before, RunReport r, long now) {
    OutcomeMerge.Merged m = OutcomeMerge.merge(before, r, now);
    if (!m.changed()) {
      return before;
    }
    store.save(m.outcome(), m.counts(), now);
    for (OutcomeMerge.Count c : m.counts()) {
      outcomes(c.tier(), c.queue(), c.kind(), c.reason()).increment();
      countedHere.merge(key(c.tier(), c.queue(), c.kind(), c.reason()), 1L, Long::sum);
    }
    for (OutcomeMerge.Count c : m.counts()) {
      if (c.kind() == OutcomeMerge.Kind.FELL_BACK) {
        check(store, props.fallbackRule(), c, m.outcome(), now);
      } else if (c.kind() == OutcomeMerge.Kind.FAILED && c.tier().isPush()) {
        check(store, props.failureRule(), c, m.outcome(), now);
      }
    }
    return m.outcome();
  }

  private void check(
      OutcomeStore store, AlertRule rule, OutcomeMerge.Count c, RunOutcome o, long now) {
    if (!props.enabled()) {
      return;
    }
    long since = now - rule.window().toMillis();
    long count = 0;
    long routed = 0;
    OutcomeMerge.Kind counted =
        rule.kind() == TierAlert.Kind.FALLBACK_RATE
            ? OutcomeMerge.Kind.FELL_BACK
            : OutcomeMerge.Kind.FAILED;
    for (OutcomeStore.CountRow row : store.counts(since, c.tier(), c.queue())) {
      if (row.kind() == counted) {
        count += row.count();
      } else if (row.kind() == OutcomeMerge.Kind.ROUTED) {
        routed += row.count();
      }
    }
    Optional<TierAlert> alert =
        rule.check(
            c.tier(),
            c.queue(),
            count,
            routed,
            store.lastRaised(c.tier(), c.queue(), rule.kind()).orElse(null),
            now,
            new AlertRule.Trigger(o.runKey(), o.appId(), o.fallbackReason(), o.fallbackDetail()));
    if (alert.isEmpty()) {
      return;
    }
    TierAlert stored = store.addAlert(alert.get());
    Counter.builder("sluice.tier.alerts")
        .description("Tier alerts raised")
        .tag("tier", c.tier().name())
        .tag("queue", queueTags.of(c.queue()))
        .tag("kind", rule.kind().name())
        .register(meters)
        .increment();
    LOG.warn("tier alert raised: {}", stored.summary());
    webhook.send(
        stored,
        done -> {
          try {
            if (Thread.holdsLock(this)) {
              store.updateAlert(
                  done); // answered at once (no webhook, queue full): still inside this report's
              // call
            } else {
              call(
                  "tier-alert-delivery",
                  st -> {
                    st.updateAlert(done);
                    return null;
                  });
            }
          } catch (RuntimeException e) {
            LOG.warn("delivery state of tier alert {} not stored: {}", done.seq(), e.getMessage());
          }
        });
  }

  private static String key(Tier tier, String queue, OutcomeMerge.Kind kind, String reason) {
    return tier + "\0" + queue + "\0" + kind + "\0" + reason;
  }

  private Counter outcomes(Tier tier, String queue, OutcomeMerge.Kind kind, String reason) {
    return Counter.builder("sluice.tier.outcomes")
        .description(
            "Runs routed to a push tier: routed, ran, fell_back (by reason), failed, succeeded; per tier "
                + "and queue")
        .tag("tier", tier.name())
        .tag("queue", queueTags.of(queue))
        .tag("outcome", kind.label())
        .tag("reason", reasonTags.of(reason))
        .register(meters);
  }

  /** The counts and the newest attempts of a window, read in one store call. */
  public record Window(List<OutcomeStore.CountRow> counts, List<RunOutcome> runs) {}

  public Window window(long since, Tier tier, String queue, int limit) {
    return call(
        "tier-outcomes",
        st -> new Window(st.counts(since, tier, queue), st.runs(since, tier, queue, limit)));
  }

  public List<OutcomeStore.CountRow> counts(long since, Tier tier, String queue) {
    return call("tier-outcome-counts", st -> st.counts(since, tier, queue));
  }

  /** The counts of [from, to). */
  public List<OutcomeStore.CountRow> counts(long from, long to) {
    return call("tier-outcome-counts", st -> st.counts(from, to));
  }

  public List<RunOutcome> runs(long since, Tier tier, String queue, int limit) {
    return call("tier-outcome-runs", st -> st.runs(since, tier, queue, limit));
  }

  public List<TierAlert> alerts(long since, Tier tier, String queue, int limit) {
    return new ArrayList<>(call("tier-alerts", st -> st.alerts(since, tier, queue, limit)));
  }

  /**
   * Runs {@code work} on the store through the access, under this service's lock (one store
   * connection).
   */
  private <T> T call(String op, Function<OutcomeStore, T> work) {
    return call(store, op, work);
  }

  private <T> T call(StoreAccess<OutcomeStore> via, String op, Function<OutcomeStore, T> work) {
    return via.call(
        op,
        st -> {
          synchronized (this) {
            return work.apply(st);
          }
        });
  }

  public long now() {
    return clock.millis();
  }
}
