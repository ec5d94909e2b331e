package io.sluice.tuner.retention;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.model.AppRun;
import io.sluice.store.GateEvent;
import io.sluice.store.HistoryStore;
import io.sluice.store.HistoryStores;
import io.sluice.tuner.StoreFixtures;
import io.sluice.tuner.audit.AuditRecord;
import io.sluice.tuner.audit.JdbcAuditLog;
import io.sluice.tuner.store.ControlDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;

/**
 * What the retention pruner does on every store, on a fake clock with the default retention: of
 * each pruned table an old row (just past its retention) goes and a young one (just within it)
 * stays, a job frozen long ago stays frozen, the deleted rows are counted per table, and a second
 * prune finds nothing.
 */
abstract class RetentionContract {
  /** The defaults, as binding no property at all gives them. */
  static final RetentionProperties DEFAULTS =
      new Binder().bindOrCreate("sluice.retention", RetentionProperties.class);

  private static final long DAY = Duration.ofDays(1).toMillis();

  /** A URL naming a new, empty store. */
  protected abstract String freshUrl();

  /** A connection to the store's database on which tuner-service's tables exist. */
  protected abstract Connection controlTables(String url) throws SQLException;

  /** Inserts a push-tier decision of {@code jobKey} taken at {@code at}. */
  protected abstract void insertTierDecision(Connection c, String jobKey, long at)
      throws SQLException;

  /** Inserts a rule-set audit entry made at {@code at}, rule-set version {@code version}. */
  protected abstract void insertTierAudit(Connection c, long version, long at) throws SQLException;

  /** Freezes {@code jobKey} as of {@code at}. */
  protected abstract void freeze(Connection c, String jobKey, long at) throws SQLException;

  /** Whether {@code jobKey} is frozen now. */
  protected abstract boolean frozen(Connection c, String jobKey) throws SQLException;

  /** The rows of {@code table} as read (ClickHouse: with deletions applied). */
  protected abstract long count(Connection c, String table) throws SQLException;

  @Test
  void oldRowsGoYoungRowsAndFreezeFlagsStayAndEveryDeletionIsCounted() throws SQLException {
    String url = freshUrl();
    AppRun base = StoreFixtures.fold("tiny_blocks-lz4");
    AppRun old = StoreFixtures.variant(base, "nightly", 1, Map.of(), 1, 1);
    AppRun young = StoreFixtures.variant(base, "nightly", 49, Map.of(), 1, 1); // two days later
    // now: the young run is 179 days old, the old one 181 days (runs keep 180 days)
    long now = young.updatedAt() + 179 * DAY;
    try (HistoryStore store = HistoryStores.open(url)) {
      store.upsert(List.of(old, young));
      store.storeGateEvents(List.of(gate(now - 30 * DAY - 1, 0), gate(now - 30 * DAY + 1, 1)));
    }
    JdbcAuditLog audit = new JdbcAuditLog(ControlDatabase.open(url));
    audit.append(
        new AuditRecord("a-old", now - 365 * DAY - 1, "root", "job.freeze", "nightly", null, null));
    audit.append(
        new AuditRecord(
            "a-young", now - 365 * DAY + 1, "root", "job.unfreeze", "nightly", null, null));
    audit.close();
    try (Connection c = controlTables(url)) {
      insertDecision(c, "run-old", now - 365 * DAY - 1);
      insertDecision(c, "run-young", now - 365 * DAY + 1);
      insertTierDecision(c, "nightly", now - 365 * DAY - 1);
      insertTierDecision(c, "nightly", now - 365 * DAY + 1);
      insertTierAudit(c, 1, now - 365 * DAY - 1);
      insertTierAudit(c, 2, now - 365 * DAY + 1);
      freeze(c, "frozen-long-ago", now - 1_000 * DAY);
    }

    SimpleMeterRegistry meters = new SimpleMeterRegistry();
    Clock clock = Clock.fixed(Instant.ofEpochMilli(now), ZoneOffset.UTC);
    RetentionPruner pruner =
        new RetentionPruner(url, ControlDatabase.open(url), DEFAULTS, clock, meters);
    Map<String, Long> one = new LinkedHashMap<>();
    for (String t :
        List.of(
            "app_runs",
            "gate_events",
            "tuner_decisions",
            "tier_decisions",
            "tier_audit",
            "sluice_audit")) {
      one.put(t, 1L);
    }
    assertThat(pruner.pruneOnce()).isEqualTo(one);

    try (HistoryStore store = HistoryStores.open(url)) {
      assertThat(store.find(old.cluster(), old.appId(), old.appAttemptId())).isEmpty();
      assertThat(store.stagesOf(old.cluster(), old.appId(), old.appAttemptId())).isEmpty();
      assertThat(store.runsOfJob("nightly", 10))
          .extracting(AppRun::appId)
          .containsExactly(young.appId());
    }
    try (Connection c = controlTables(url)) {
      for (String t :
          List.of(
              "gate_events", "tuner_decisions", "tier_decisions", "tier_audit", "sluice_audit")) {
        assertThat(count(c, t)).as(t).isEqualTo(1);
      }
      assertThat(frozen(c, "frozen-long-ago")).isTrue();
    }
    one.forEach(
        (table, n) ->
            assertThat(meters.get("sluice.retention.pruned").tag("table", table).counter().count())
                .as(table)
                .isEqualTo(1.0));
    assertThat(pruner.pruneOnce().values()).containsOnly(0L);
    pruner.close();
  }

  private static GateEvent gate(long at, long offset) {
    return new GateEvent(
        "c",
        "n1",
        at,
        "held",
        "app-1",
        0,
        offset,
        1,
        null,
        null,
        null,
        "{\"type\":\"held\",\"at\":" + at + "}");
  }

  private static void insertDecision(Connection c, String runKey, long at) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "INSERT INTO tuner_decisions (job_key, run_key, run_start, kind, "
                + "conf_key, direction, conf_value, reason, evidence, decided_at) VALUES (?, ?, ?, 'ROLLED_BACK', "
                + "'spark.sql.shuffle.partitions', 'down', '50', 'slower', '{}', ?)")) {
      ps.setString(1, "nightly");
      ps.setString(2, runKey);
      ps.setLong(3, at);
      ps.setLong(4, at);
      ps.executeUpdate();
    }
  }

  static long single(Connection c, String sql) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql);
        ResultSet rs = ps.executeQuery()) {
      rs.next();
      return rs.getLong(1);
    }
  }
}
