package io.sluice.tuner.tier;

import io.sluice.contracts.Tier;
import io.sluice.model.Json;
import io.sluice.tuner.store.ClickHouseTables;
import io.sluice.tuner.store.Versions;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Optional;

/**
 * The tier store in the history store's ClickHouse database (tables {@code tier_rule_sets}, {@code tier_audit},
 * {@code tier_decisions} of {@code deploy/clickhouse/V5__tuner_control.sql}). ClickHouse has no transactions, so a
 * save is one row holding the whole rule set (rules and deny entries) under its version: the newest version is the
 * one in force ({@code FINAL}). The audit entry is written first and keyed by that version, so a save that fails
 * after it and is retried replaces its own entry, and a visible rule set always has its audit entry. Audit entries
 * read back with the rule-set version as their sequence number. A job's decisions are read newest first; older ones
 * are not deleted (the read is bounded). Calls are serialised on one connection, reopened after a failure.
 */
final class ClickHouseTierStore implements TierStore {
  private final ClickHouseTables tables;
  private final String where;
  private final Versions versions = new Versions();

  ClickHouseTierStore(String url, String where) {
    this.tables = new ClickHouseTables(url);
    this.where = where;
  }

  @Override
  public synchronized Optional<RuleSet> load() {
    try (Statement st = tables.get().createStatement();
        ResultSet rs = st.executeQuery("SELECT rule_set FROM tier_rule_sets FINAL WHERE slot = 0")) {
      return rs.next() ? Optional.of(Json.read(rs.getString(1), RuleSet.class)) : Optional.empty();
    } catch (SQLException | RuntimeException e) {
      throw failed("loading the rollout rules", e);
    }
  }

  @Override
  public synchronized void save(RuleSet next, AuditEntry a) {
    try {
      Connection c = tables.get();
      try (PreparedStatement ps = c.prepareStatement("INSERT INTO tier_audit (version, at, actor, action, item_id, "
          + "before_json, after_json) VALUES (?, ?, ?, ?, ?, ?, ?)")) {
        ps.setLong(1, next.version());
        ps.setLong(2, a.at());
        ps.setString(3, a.actor());
        ps.setString(4, a.action());
        ps.setString(5, a.itemId());
        ps.setString(6, a.before());
        ps.setString(7, a.after());
        ps.executeUpdate();
      }
      try (PreparedStatement ps = c.prepareStatement(
          "INSERT INTO tier_rule_sets (slot, version, saved_at, rule_set) VALUES (0, ?, ?, ?)")) {
        ps.setLong(1, next.version());
        ps.setLong(2, a.at());
        ps.setString(3, Json.write(next));
        ps.executeUpdate();
      }
    } catch (SQLException | RuntimeException e) {
      throw failed("saving the rollout rules", e);
    }
  }

  @Override
  public synchronized List<AuditEntry> audit(int limit) {
    try {
      return TierRows.CLICKHOUSE.audit(tables.get(), limit);
    } catch (SQLException | RuntimeException e) {
      throw failed("reading the rule audit", e);
    }
  }

  @Override
  public synchronized void record(TierDecision d) {
    try (PreparedStatement ps = tables.get().prepareStatement(
        "INSERT INTO tier_decisions (job_key, seq, decided_at, json, tier, queue, outcome) VALUES (?, ?, ?, ?, ?, ?, ?)")) {
      ps.setString(1, d.jobKey());
      ps.setLong(2, versions.next(d.decidedAt()));
      ps.setLong(3, d.decidedAt());
      ps.setString(4, Json.write(d));
      Tier counted = TierRows.countedTier(d);
      ps.setString(5, counted == null ? "" : counted.name());
      ps.setString(6, d.queue() == null ? "" : d.queue());
      ps.setString(7, d.outcome() == null ? "" : d.outcome().name());
      ps.executeUpdate();
    } catch (SQLException | RuntimeException e) {
      throw failed("recording a tier decision of " + d.jobKey(), e);
    }
  }

  @Override
  public synchronized List<DecisionCount> decisionCounts(long from, long to) {
    try {
      return TierRows.CLICKHOUSE.decisionCounts(tables.get(), from, to);
    } catch (SQLException | RuntimeException e) {
      throw failed("counting tier decisions", e);
    }
  }

  @Override
  public synchronized List<TierDecision> decisions(String jobKey, int limit) {
    try {
      return TierRows.CLICKHOUSE.decisions(tables.get(), jobKey, limit);
    } catch (SQLException | RuntimeException e) {
      throw failed("reading the tier decisions of " + jobKey, e);
    }
  }

  private IllegalStateException failed(String what, Exception e) {
    tables.drop();
    return new IllegalStateException(what + " in the tier store at " + where + " failed: " + e.getMessage(), e);
  }

  @Override
  public String describe() {
    return "ClickHouse tier store at " + where;
  }

  @Override
  public synchronized void close() {
    tables.drop();
  }
}
