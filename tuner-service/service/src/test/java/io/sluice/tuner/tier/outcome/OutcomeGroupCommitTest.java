package io.sluice.tuner.tier.outcome;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.contracts.Tier;
import io.sluice.tuner.store.ControlDatabase;
import io.sluice.tuner.store.StoreAccess;
import io.sluice.tuner.store.StoreGateway;
import io.sluice.tuner.testing.Conditions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Outcome reports in group commits over a real H2 file: concurrent reports are all stored, each
 * once, and each caller is answered with its own run; a store that fails while writing a group
 * fails every report of that group, none of which is acknowledged nor stored (the group is one
 * transaction); a group the store cannot take (the gateway's answer while the store is down) is
 * tried again within the report's wait, and fails only once that is over.
 */
class OutcomeGroupCommitTest {
  static final int REPORTS = 40;

  @TempDir Path dir;

  final ExecutorService drivers = Executors.newFixedThreadPool(REPORTS);
  final SimpleMeterRegistry meters = new SimpleMeterRegistry();
  OutcomeService service;

  @AfterEach
  void stop() {
    drivers.shutdownNow();
    if (service != null) {
      service.close();
    }
  }

  static RunReport succeeded(String submissionId) {
    return new RunReport(
        submissionId,
        "app-" + submissionId,
        1,
        RunReport.Source.DRIVER,
        "prod",
        "root.etl",
        "job",
        Tier.CELEBORN,
        Tier.CELEBORN,
        null,
        null,
        3L,
        RunReport.Status.SUCCEEDED,
        null);
  }

  @Test
  void concurrentReportsAreAllStoredOnceAndEachAcknowledgedWithItsOwnRun() throws Exception {
    GatedStore store = new GatedStore(h2());
    service = service(store);
    // hold the first group so that the others gather behind it
    store.gate.set(true);
    List<Future<RunOutcome>> answers = new ArrayList<>();
    answers.add(drivers.submit(() -> service.report(succeeded("s-0"))));
    assertThat(store.held.await(30, TimeUnit.SECONDS)).isTrue();
    for (int i = 1; i < REPORTS; i++) {
      String id = "s-" + i;
      answers.add(drivers.submit(() -> service.report(succeeded(id))));
    }
    Conditions.waitUntil("39 reports queued", () -> store.queued() == REPORTS - 1);
    store.release.countDown();
    for (int i = 0; i < REPORTS; i++) {
      RunOutcome o = answers.get(i).get(30, TimeUnit.SECONDS);
      assertThat(o.runKey()).isEqualTo("sub:s-" + i);
      assertThat(o.status()).isEqualTo(RunReport.Status.SUCCEEDED);
    }
    assertThat(store.groups.get())
        .as("39 reports that waited together went in one group")
        .isEqualTo(2);
    List<RunOutcome> stored = service.runs(0, null, null, 500);
    assertThat(stored).hasSize(REPORTS);
    assertThat(stored).extracting(RunOutcome::runKey).doesNotHaveDuplicates();
    assertThat(service.counts(0, Tier.CELEBORN, "root.etl"))
        .filteredOn(c -> c.kind() == OutcomeMerge.Kind.ROUTED)
        .extracting(OutcomeStore.CountRow::count)
        .containsExactly((long) REPORTS);
    assertThat(meters.get("sluice.tier.outcomes").tag("outcome", "succeeded").counter().count())
        .isEqualTo(REPORTS);
  }

  @Test
  void aStoreFailingInAGroupFailsEveryReportOfItAndStoresNone() throws Exception {
    GatedStore store = new GatedStore(h2());
    service = service(store);
    store.gate.set(true);
    Future<RunOutcome> first = drivers.submit(() -> service.report(succeeded("s-0")));
    assertThat(store.held.await(30, TimeUnit.SECONDS)).isTrue();
    List<Future<RunOutcome>> group = new ArrayList<>();
    for (int i = 1; i < REPORTS; i++) {
      String id = "s-" + i;
      group.add(drivers.submit(() -> service.report(succeeded(id))));
    }
    Conditions.waitUntil("39 reports queued", () -> store.queued() == REPORTS - 1);
    store.failOnSave.set("sub:s-" + (REPORTS / 2)); // the group's 20th save fails
    store.release.countDown();
    assertThat(first.get(30, TimeUnit.SECONDS).runKey()).isEqualTo("sub:s-0");
    for (Future<RunOutcome> f : group) {
      try {
        f.get(30, TimeUnit.SECONDS);
        throw new AssertionError("a report of the failed group was acknowledged");
      } catch (ExecutionException e) {
        assertThat(e.getCause()).hasMessageContaining("the store failed while saving");
      }
    }
    assertThat(service.runs(0, null, null, 500))
        .extracting(RunOutcome::runKey)
        .containsExactly("sub:s-0");
    assertThat(meters.get("sluice.tier.outcomes").tag("outcome", "routed").counter().count())
        .as("nothing of the rolled-back group is counted")
        .isEqualTo(1);
    assertThat(meters.get("sluice.tier.outcome.reports.lost").counter().count())
        .isEqualTo(REPORTS - 1);
    // the store is fine again: a new report is stored
    store.failOnSave.set(null);
    assertThat(service.report(succeeded("s-after")).runKey()).isEqualTo("sub:s-after");
  }

  @Test
  void aGroupTheStoreCannotTakeIsTriedAgainAndItsReportsStoredOnce() throws Exception {
    GatedStore store = new GatedStore(h2());
    service = service(store);
    store.unavailable.set(3); // the breaker open, say: three tries answered at once
    RunOutcome o = service.report(succeeded("s-0"));
    assertThat(o.runKey()).isEqualTo("sub:s-0");
    assertThat(store.unavailable.get()).isZero();
    assertThat(meters.get("sluice.tier.outcome.store.retries").counter().count()).isEqualTo(3);
    assertThat(service.runs(0, null, null, 500))
        .extracting(RunOutcome::runKey)
        .containsExactly("sub:s-0");
    assertThat(meters.get("sluice.tier.outcomes").tag("outcome", "succeeded").counter().count())
        .isEqualTo(1);
    assertThat(meters.find("sluice.tier.outcome.reports.lost").counter()).isNull();
  }

  @Test
  void aStoreThatStaysUnavailableFailsTheReportOnceItsWaitIsOverAndStoresNothing() {
    GatedStore store = new GatedStore(h2());
    service = service(store, Map.of("sluice.tier.outcomes.report-wait", "300ms"));
    store.unavailable.set(Integer.MAX_VALUE);
    try {
      service.report(succeeded("s-0"));
      throw new AssertionError("a report the store never took was acknowledged");
    } catch (StoreGateway.Unavailable e) {
      // the store's own reason when the group's last try failed, or the wait's end
      assertThat(e.reason()).isIn("circuit_open", "timeout");
    }
    assertThat(meters.get("sluice.tier.outcome.store.retries").counter().count()).isPositive();
    assertThat(meters.get("sluice.tier.outcome.reports.lost").counter().count()).isEqualTo(1);
    store.unavailable.set(0);
    assertThat(service.runs(0, null, null, 500)).isEmpty();
  }

  private H2OutcomeStore h2() {
    return new H2OutcomeStore(
        ControlDatabase.open("jdbc:h2:file:" + dir.resolve("h").toAbsolutePath()), "test");
  }

  /** The service over the store, as the application builds it (its default store timeout). */
  OutcomeService service(GatedStore store) {
    return service(store, Map.of());
  }

  OutcomeService service(GatedStore store, Map<String, String> props) {
    OutcomeService s =
        new OutcomeService(
            StoreAccess.direct(store),
            OutcomeStoreTest.bind("sluice.tier.outcomes", TierOutcomeProperties.class, props),
            OutcomeStoreTest.props(),
            new AlertWebhook("", Duration.ofSeconds(1), 1, Duration.ZERO, 1, meters),
            meters,
            OutcomeStoreTest.CLOCK);
    store.service = s;
    return s;
  }

  /**
   * The real H2 store with a gate: the first group holds until released (so the next reports
   * gather), and a save of one chosen run fails as a store failure would.
   */
  static final class GatedStore implements OutcomeStore {
    final H2OutcomeStore real;
    final AtomicBoolean gate = new AtomicBoolean();
    final CountDownLatch held = new CountDownLatch(1);
    final CountDownLatch release = new CountDownLatch(1);
    final AtomicInteger groups = new AtomicInteger();

    /** Group writes still to be refused as the gateway refuses them while the store is down. */
    final AtomicInteger unavailable = new AtomicInteger();

    final java.util.concurrent.atomic.AtomicReference<String> failOnSave =
        new java.util.concurrent.atomic.AtomicReference<>();
    volatile OutcomeService service;

    GatedStore(H2OutcomeStore real) {
      this.real = real;
    }

    int queued() {
      return service.waitingReports();
    }

    @Override
    public <T> T group(Supplier<T> work) {
      groups.incrementAndGet();
      if (unavailable.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
        throw new StoreGateway.Unavailable(
            "circuit_open", "the store's circuit breaker is open", null);
      }
      if (gate.getAndSet(false)) {
        held.countDown();
        try {
          if (!release.await(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException("not released within 30 s");
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException(e);
        }
      }
      return real.group(work);
    }

    @Override
    public void save(RunOutcome o, List<OutcomeMerge.Count> counts, long at) {
      real.save(o, counts, at);
      if (o.runKey().equals(failOnSave.get())) {
        throw new IllegalStateException("the store failed while saving " + o.runKey());
      }
    }

    @Override
    public void saveAll(List<Save> saves) {
      real.saveAll(saves);
      for (Save s : saves) {
        if (s.outcome().runKey().equals(failOnSave.get())) {
          throw new IllegalStateException("the store failed while saving " + s.outcome().runKey());
        }
      }
    }

    @Override
    public List<RunOutcome> attemptsOf(java.util.Collection<String> runKeys) {
      return real.attemptsOf(runKeys);
    }

    @Override
    public Optional<RunOutcome> run(String runKey, int attempt) {
      return real.run(runKey, attempt);
    }

    @Override
    public List<RunOutcome> attempts(String runKey) {
      return real.attempts(runKey);
    }

    @Override
    public List<CountRow> counts(long since, Tier tier, String queue) {
      return real.counts(since, tier, queue);
    }

    @Override
    public List<CountRow> counts(long from, long to) {
      return real.counts(from, to);
    }

    @Override
    public List<CountRow> totals() {
      return real.totals();
    }

    @Override
    public int pruneEvents(long before, int batch) {
      return real.pruneEvents(before, batch);
    }

    @Override
    public int pruneRuns(long before, int batch) {
      return real.pruneRuns(before, batch);
    }

    @Override
    public int pruneAlerts(long before, int batch) {
      return real.pruneAlerts(before, batch);
    }

    @Override
    public List<RunOutcome> runs(long since, Tier tier, String queue, int limit) {
      return real.runs(since, tier, queue, limit);
    }

    @Override
    public TierAlert addAlert(TierAlert a) {
      return real.addAlert(a);
    }

    @Override
    public void updateAlert(TierAlert a) {
      real.updateAlert(a);
    }

    @Override
    public Optional<Long> lastRaised(Tier tier, String queue, TierAlert.Kind kind) {
      return real.lastRaised(tier, queue, kind);
    }

    @Override
    public List<TierAlert> alerts(long since, Tier tier, String queue, int limit) {
      return real.alerts(since, tier, queue, limit);
    }

    @Override
    public String describe() {
      return real.describe();
    }

    @Override
    public void close() {
      real.close();
    }
  }
}
