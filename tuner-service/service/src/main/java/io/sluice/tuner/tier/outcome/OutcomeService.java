package io.sluice.tuner.tier.outcome;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.tuner.tier.Tier;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes run reports: merges each into its attempt ({@link OutcomeMerge}), stores the attempt and its counts in the
 * {@link OutcomeStore}, adds the counts to {@code sluice.tier.outcomes} (tags tier, queue, outcome, reason — the
 * store's totals are added by a background thread once the store answers, so the Prometheus counters carry on after
 * a restart), and checks the alert rules
 * for the tier and queue a fallback or failure was counted for. A report about attempt N > 1 closes the run's
 * earlier attempts that have no final status as {@code FAILED} (source {@code INFERRED}): on YARN, a second attempt
 * means the first one failed. Reports are serialised (one lock): they come once or twice per run, never on the
 * submission path.
 */
public final class OutcomeService {
  private static final Logger LOG = LoggerFactory.getLogger(OutcomeService.class);

  private final OutcomeStore store;
  private final TierAlertProperties props;
  private final AlertWebhook webhook;
  private final MeterRegistry meters;
  private final Clock clock;
  /** Counts added by this process, per meter (for {@link #restoreTotals()}). */
  private final Map<String, Long> countedHere = new HashMap<>();
  private boolean restored;

  public OutcomeService(OutcomeStore store, TierAlertProperties props, AlertWebhook webhook, MeterRegistry meters,
      Clock clock) {
    this.store = store;
    this.props = props;
    this.webhook = webhook;
    this.meters = meters;
    this.clock = clock;
    props.fallbackRule(); // fail start-up on an invalid rule, naming the value
    props.failureRule();
  }

  /**
   * Adds the store's all-time totals to {@code sluice.tier.outcomes}, minus what this process already counted (so
   * nothing is counted twice). Called once by a background thread ({@link #restoreInBackground}): never on start-up's
   * path, since a store that does not answer must not stop the service from starting.
   */
  public synchronized void restoreTotals() {
    if (restored) {
      return;
    }
    for (OutcomeStore.CountRow c : store.counts(0, null, null)) {
      String key = key(c.tier(), c.queue(), c.kind(), c.reason());
      long missing = c.count() - countedHere.getOrDefault(key, 0L);
      if (missing > 0) {
        outcomes(c.tier(), c.queue(), c.kind(), c.reason()).increment(missing);
      }
    }
    restored = true;
  }

  /** Restores the totals from a daemon thread, retrying every {@code retryMs} until the store answers. */
  public Thread restoreInBackground(long retryMs) {
    Thread t = new Thread(() -> {
      while (true) {
        try {
          restoreTotals();
          return;
        } catch (RuntimeException e) {
          LOG.warn("tier outcome totals not restored yet ({}); retrying in {} ms", e.getMessage(), retryMs);
        }
        try {
          Thread.sleep(retryMs);
        } catch (InterruptedException e) {
          return;
        }
      }
    }, "sluice-tier-outcome-totals");
    t.setDaemon(true);
    t.start();
    return t;
  }

  /** Merges, stores and counts the report; returns the attempt as now known. Store failures are thrown. */
  public synchronized RunOutcome report(RunReport r) {
    long now = clock.millis();
    Counter.builder("sluice.tier.outcome.reports").description("Tier run reports received, by reporter")
        .tag("source", r.source().name()).register(meters).increment();
    if (r.attempt() > 1) {
      for (RunOutcome earlier : store.attempts(r.runKey())) {
        if (earlier.attempt() < r.attempt() && !earlier.status().isFinal()) {
          apply(earlier, new RunReport(null, null, earlier.attempt(), RunReport.Source.INFERRED, null, null, null,
              null, null, null, null, null, RunReport.Status.FAILED, null), now);
        }
      }
    }
    return apply(store.run(r.runKey(), r.attempt()).orElse(null), r, now);
  }

  private RunOutcome apply(RunOutcome before, RunReport r, long now) {
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
        check(props.fallbackRule(), c, m.outcome(), now);
      } else if (c.kind() == OutcomeMerge.Kind.FAILED && c.tier().isPush()) {
        check(props.failureRule(), c, m.outcome(), now);
      }
    }
    return m.outcome();
  }

  private void check(AlertRule rule, OutcomeMerge.Count c, RunOutcome o, long now) {
    if (!props.isEnabled()) {
      return;
    }
    long since = now - rule.window().toMillis();
    long count = 0;
    long routed = 0;
    OutcomeMerge.Kind counted = rule.kind() == TierAlert.Kind.FALLBACK_RATE ? OutcomeMerge.Kind.FELL_BACK
        : OutcomeMerge.Kind.FAILED;
    for (OutcomeStore.CountRow row : store.counts(since, c.tier(), c.queue())) {
      if (row.kind() == counted) {
        count += row.count();
      } else if (row.kind() == OutcomeMerge.Kind.ROUTED) {
        routed += row.count();
      }
    }
    Optional<TierAlert> alert = rule.check(c.tier(), c.queue(), count, routed,
        store.lastRaised(c.tier(), c.queue(), rule.kind()).orElse(null), now,
        new AlertRule.Trigger(o.runKey(), o.appId(), o.fallbackReason(), o.fallbackDetail()));
    if (alert.isEmpty()) {
      return;
    }
    TierAlert stored = store.addAlert(alert.get());
    Counter.builder("sluice.tier.alerts").description("Tier alerts raised").tag("tier", c.tier().name())
        .tag("queue", c.queue()).tag("kind", rule.kind().name()).register(meters).increment();
    LOG.warn("tier alert raised: {}", stored.summary());
    webhook.send(stored, done -> {
      try {
        store.updateAlert(done);
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
        .description("Runs routed to a push tier: routed, ran, fell_back (by reason), failed, succeeded; per tier "
            + "and queue")
        .tag("tier", tier.name()).tag("queue", queue).tag("outcome", kind.label()).tag("reason", reason)
        .register(meters);
  }

  public List<OutcomeStore.CountRow> counts(long since, Tier tier, String queue) {
    return store.counts(since, tier, queue);
  }

  public List<RunOutcome> runs(long since, Tier tier, String queue, int limit) {
    return store.runs(since, tier, queue, limit);
  }

  public List<TierAlert> alerts(long since, Tier tier, String queue, int limit) {
    return new ArrayList<>(store.alerts(since, tier, queue, limit));
  }

  public long now() {
    return clock.millis();
  }
}
