package io.sluice.tuner.tier.outcome;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.contracts.Tier;
import io.sluice.tuner.TagValues;
import io.sluice.tuner.store.GroupCommit;
import io.sluice.tuner.store.StoreAccess;
import io.sluice.tuner.store.StoreGateway;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
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
 * YARN, a second attempt means the first one failed. Reports are written by one committer thread in
 * group commits (a fleet's drivers send one or two per run, hundreds per second at peak): one store
 * call and one transaction per group, every report of it answered only once the group is committed;
 * counters and alert webhooks follow the commit. Store work is serialised (one lock).
 *
 * <p>Every call reaches the store through a {@link StoreAccess} (in the service: the {@link
 * StoreGateway}'s store threads, {@code sluice.tier.outcomes.store-timeout} and the store's circuit
 * breaker), so a hung or dead store makes the API answer 503 at the time limit instead of holding
 * its threads. A report that is not stored is counted in {@code sluice.tier.outcome.reports.lost}
 * (tag reason: timeout, circuit_open, busy or error) once {@code sluice.tier.outcomes.report-wait}
 * has passed without its group being stored (a group write the store could not take is tried again
 * within it); one abandoned at the time limit is skipped when its group comes, unless its group had
 * already started writing (then it may still be stored once the store answers, and is counted both
 * ways). {@link #prune} deletes rows older than {@code sluice.tier.outcomes.retention}.
 */
public final class OutcomeService implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(OutcomeService.class);

  /**
   * Rows deleted per store call of a prune (each a separate call, so none holds the store for
   * long).
   */
  static final int PRUNE_BATCH = 1_000;

  /**
   * Reports per group commit at most: at 64 a group's one transaction stays short (tens of ms at
   * most here) while 250 reports/s need only a few groups per second.
   */
  static final int MAX_GROUP = 64;

  /**
   * Reports that may wait for their group; more are answered 503 at once (at 250 reports/s this is
   * over 8 s of reports, far past the store timeout they would wait out).
   */
  static final int GROUP_QUEUE = 2_048;

  /** The first wait before a failed group write is tried again; each next wait doubles. */
  static final long RETRY_FIRST_MS = 50;

  /**
   * The longest wait between two tries of a group write: short, because a try while the store's
   * breaker is open costs nothing, and the breaker's few half-open probes are almost always taken
   * by submissions, so the reports' group write gets through only once the breaker has closed.
   */
  static final long RETRY_MAX_MS = 200;

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
  private final Duration reportWait;
  private final Counter retries;
  private final GroupCommit<RunReport, RunOutcome> commits;

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
    this.reportWait = outcomes.reportWait();
    this.retries =
        Counter.builder("sluice.tier.outcome.store.retries")
            .description(
                "Group writes of run reports tried again after the store failed or could not take them")
            .register(meters);
    this.commits =
        new GroupCommit<>("sluice-outcome-commit", this::writeGroup, MAX_GROUP, GROUP_QUEUE);
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
   * Merges, stores and counts the report; returns the attempt as now known, once it is durable.
   * Reports arriving together are written in group commits ({@link GroupCommit}: one store call and
   * one transaction for up to {@value #MAX_GROUP} reports); a report waits at most {@code
   * sluice.tier.outcomes.report-wait} for its group to be stored, which is tried again while the
   * store is unavailable ({@link #writeGroup}). Store failures are thrown (a failed group fails
   * every report in it, none acknowledged).
   */
  public RunOutcome report(RunReport r) {
    Counter.builder("sluice.tier.outcome.reports")
        .description("Tier run reports received, by reporter")
        .tag("source", r.source().name())
        .register(meters)
        .increment();
    try {
      return commits.submit(r, reportWait);
    } catch (RuntimeException e) {
      Counter.builder("sluice.tier.outcome.reports.lost")
          .description(
              "Tier run reports not stored: the store did not answer in time or at all, by reason")
          .tag("reason", e instanceof StoreGateway.Unavailable u ? u.reason() : "error")
          .register(meters)
          .increment();
      throw e;
    }
  }

  /**
   * Writes one group ({@link #writeOnce}); while the store is unavailable (down, its breaker open,
   * busy, or the call failed) and some report of the group is still waited for, tries again after
   * {@value #RETRY_FIRST_MS} ms, doubling up to {@value #RETRY_MAX_MS} ms, within {@code
   * report-wait} from the group's first try. Trying again is safe: a report merged into an attempt
   * that already holds it changes nothing (a write that failed after its commit is not counted
   * twice).
   */
  private void writeGroup(List<GroupCommit.Item<RunReport, RunOutcome>> group) {
    long deadline = System.nanoTime() + reportWait.toNanos();
    long waitMs = RETRY_FIRST_MS;
    while (true) {
      try {
        writeOnce(group);
        return;
      } catch (StoreGateway.Unavailable e) {
        long leftMs = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
        if (leftMs <= waitMs || group.stream().allMatch(GroupCommit.Item::abandoned)) {
          throw e;
        }
        retries.increment();
        try {
          Thread.sleep(waitMs);
        } catch (InterruptedException stop) {
          Thread.currentThread().interrupt();
          throw e;
        }
        waitMs = Math.min(waitMs * 2, RETRY_MAX_MS);
      }
    }
  }

  /**
   * Writes one group in one store call; a group the store refuses as a client error (a report's
   * data) is written again report by report, so that only the bad one is answered 400.
   */
  private void writeOnce(List<GroupCommit.Item<RunReport, RunOutcome>> group) {
    try {
      answer(group, call("tier-outcome-report", st -> commit(st, group)));
    } catch (StoreGateway.Rejected e) {
      if (group.size() == 1) {
        throw e;
      }
      for (GroupCommit.Item<RunReport, RunOutcome> item : group) {
        try {
          answer(List.of(item), call("tier-outcome-report", st -> commit(st, List.of(item))));
        } catch (RuntimeException one) {
          item.failed(one);
        }
      }
    }
  }

  private static void answer(
      List<GroupCommit.Item<RunReport, RunOutcome>> group, List<RunOutcome> written) {
    for (int i = 0; i < group.size(); i++) {
      group.get(i).done(written.get(i));
    }
  }

  /**
   * The group's reports in one commit (skipping those whose callers gave up before it started),
   * then what must follow only a durable write: the counters and the alerts' webhooks.
   */
  private List<RunOutcome> commit(
      OutcomeStore st, List<GroupCommit.Item<RunReport, RunOutcome>> group) {
    List<Runnable> afterCommit = new ArrayList<>();
    List<RunOutcome> written =
        st.group(
            () -> {
              List<RunReport> live = new ArrayList<>();
              group.forEach(i -> live.add(i.abandoned() ? null : i.value()));
              GroupWrites w = new GroupWrites(st, live);
              List<RunOutcome> out = new ArrayList<>(group.size());
              for (RunReport r : live) {
                out.add(r == null ? null : report(w, r, afterCommit));
              }
              w.flush();
              return out;
            });
    afterCommit.forEach(Runnable::run);
    return written;
  }

  private RunOutcome report(GroupWrites st, RunReport r, List<Runnable> afterCommit) {
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
              now,
              afterCommit);
        }
      }
    }
    return apply(st, st.run(r.runKey(), r.attempt()).orElse(null), r, now, afterCommit);
  }

  private RunOutcome apply(
      GroupWrites store, RunOutcome before, RunReport r, long now, List<Runnable> afterCommit) {
    OutcomeMerge.Merged m = OutcomeMerge.merge(before, r, now);
    if (!m.changed()) {
      return before;
    }
    store.save(m.outcome(), m.counts(), now);
    afterCommit.add(
        () -> {
          for (OutcomeMerge.Count c : m.counts()) {
            outcomes(c.tier(), c.queue(), c.kind(), c.reason()).increment();
            countedHere.merge(key(c.tier(), c.queue(), c.kind(), c.reason()), 1L, Long::sum);
          }
        });
    for (OutcomeMerge.Count c : m.counts()) {
      if (c.kind() == OutcomeMerge.Kind.FELL_BACK) {
        check(store, props.fallbackRule(), c, m.outcome(), now, afterCommit);
      } else if (c.kind() == OutcomeMerge.Kind.FAILED && c.tier().isPush()) {
        check(store, props.failureRule(), c, m.outcome(), now, afterCommit);
      }
    }
    return m.outcome();
  }

  private void check(
      GroupWrites writes,
      AlertRule rule,
      OutcomeMerge.Count c,
      RunOutcome o,
      long now,
      List<Runnable> afterCommit) {
    if (!props.enabled()) {
      return;
    }
    OutcomeStore store = writes.flushed(); // the window's counts include the group's so far
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
    afterCommit.add(() -> raised(store, rule, c, stored));
  }

  /**
   * A group's view of its runs: every stored attempt of the group's runs read in one query, the
   * group's own merges on top, and its saves written together ({@link OutcomeStore#saveAll}) when
   * the group ends or an alert check needs the counts stored.
   */
  private static final class GroupWrites {
    private final OutcomeStore store;
    private final Map<String, java.util.TreeMap<Integer, RunOutcome>> known = new HashMap<>();
    private final List<OutcomeStore.Save> pending = new ArrayList<>();

    GroupWrites(OutcomeStore store, List<RunReport> reports) {
      this.store = store;
      java.util.Set<String> keys = new java.util.LinkedHashSet<>();
      for (RunReport r : reports) {
        if (r != null) {
          keys.add(r.runKey());
        }
      }
      for (RunOutcome o : store.attemptsOf(keys)) {
        put(o);
      }
    }

    private void put(RunOutcome o) {
      known.computeIfAbsent(o.runKey(), k -> new java.util.TreeMap<>()).put(o.attempt(), o);
    }

    Optional<RunOutcome> run(String runKey, int attempt) {
      return Optional.ofNullable(
          known.getOrDefault(runKey, new java.util.TreeMap<>()).get(attempt));
    }

    /** The attempts of a run, oldest first. */
    List<RunOutcome> attempts(String runKey) {
      return new ArrayList<>(known.getOrDefault(runKey, new java.util.TreeMap<>()).values());
    }

    void save(RunOutcome o, List<OutcomeMerge.Count> counts, long at) {
      put(o);
      pending.add(new OutcomeStore.Save(o, counts, at));
    }

    /** The store, with the group's saves so far written. */
    OutcomeStore flushed() {
      flush();
      return store;
    }

    void flush() {
      if (!pending.isEmpty()) {
        store.saveAll(List.copyOf(pending));
        pending.clear();
      }
    }
  }

  /** Counts, logs and delivers an alert once it is stored. */
  private void raised(OutcomeStore store, AlertRule rule, OutcomeMerge.Count c, TierAlert stored) {
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
              // answered at once (no webhook, queue full): still inside this group's call
              store.updateAlert(done);
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

  /** Reports waiting for their group commit. */
  int waitingReports() {
    return commits.waiting();
  }

  /** Stops the group commits; reports still waiting fail. */
  @Override
  public void close() {
    commits.close();
  }
}
