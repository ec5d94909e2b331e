package io.sluice.tuner.tier;

import io.sluice.model.Json;
import io.sluice.tuner.store.ControlDatabase;
import io.sluice.tuner.store.Versions;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The tier store in the history store's ClickHouse database (tables {@code tier_rule_sets}, {@code
 * tier_audit}, {@code tier_decisions} of {@code deploy/clickhouse/V5__tuner_control.sql}).
 * ClickHouse has no transactions, so a save is one row holding the whole rule set (rules and deny
 * entries) under its version: the newest version is the one in force ({@code FINAL}). The audit
 * entry is written first and keyed by that version, so a save that fails after it and is retried
 * replaces its own entry, and a visible rule set always has its audit entry. Audit entries read
 * back with the rule-set version as their sequence number. A job's decisions are read newest first;
 * older ones are not deleted (the read is bounded). Calls go through the {@link ControlDatabase}
 * pool.
 */
final class ClickHouseTierStore implements TierStore {
  private final ControlDatabase db;
  private final String where;
  private final Versions versions = new Versions();

  ClickHouseTierStore(ControlDatabase db, String where) {
    this.db = db;
    this.where = where;
  }

  @Override
  public Optional<RuleSet> load() {
    try {
      return db.jdbc()
          .sql("SELECT rule_set FROM tier_rule_sets FINAL WHERE slot = 0")
          .query((rs, n) -> Json.read(rs.getString(1), RuleSet.class))
          .optional();
    } catch (RuntimeException e) {
      throw failed("loading the rollout rules", e);
    }
  }

  @Override
  public void save(RuleSet next, AuditEntry a) {
    try {
      db.jdbc()
          .sql(TierRows.insert("tier_audit", TierRows.AUDIT_COLUMNS))
          .params(TierRows.auditValues(a))
          .update();
      db.jdbc()
          .sql("INSERT INTO tier_rule_sets (slot, version, saved_at, rule_set) VALUES (0, ?, ?, ?)")
          .params(next.version(), a.at(), Json.write(next))
          .update();
    } catch (RuntimeException e) {
      throw failed("saving the rollout rules", e);
    }
  }

  @Override
  public List<AuditEntry> audit(int limit) {
    try {
      return TierRows.CLICKHOUSE.audit(db.jdbc(), limit);
    } catch (RuntimeException e) {
      throw failed("reading the rule audit", e);
    }
  }

  @Override
  public void record(TierDecision d) {
    recordAll(List.of(d));
  }

  /** One INSERT of all the decisions (ClickHouse's inserts are costly one by one). */
  @Override
  public void recordAll(List<TierDecision> decisions) {
    if (decisions.isEmpty()) {
      return;
    }
    List<Object[]> rows = new ArrayList<>(decisions.size());
    for (TierDecision d : decisions) {
      Object[] values = TierRows.decisionValues(d, "");
      Object[] row = new Object[values.length + 1];
      row[0] = versions.next(d.decidedAt());
      System.arraycopy(values, 0, row, 1, values.length);
      rows.add(row);
    }
    try {
      db.batch(TierRows.insert("tier_decisions", "seq, " + TierRows.DECISION_COLUMNS), rows);
    } catch (RuntimeException e) {
      throw failed(
          "recording "
              + decisions.size()
              + " tier decision(s), the first of "
              + decisions.get(0).jobKey(),
          e);
    }
  }

  @Override
  public List<DecisionCount> decisionCounts(long from, long to) {
    try {
      return TierRows.CLICKHOUSE.decisionCounts(db.jdbc(), from, to);
    } catch (RuntimeException e) {
      throw failed("counting tier decisions", e);
    }
  }

  @Override
  public List<TierDecision> decisions(String jobKey, int limit) {
    try {
      return TierRows.CLICKHOUSE.decisions(db.jdbc(), jobKey, limit);
    } catch (RuntimeException e) {
      throw failed("reading the tier decisions of " + jobKey, e);
    }
  }

  private IllegalStateException failed(String what, Exception e) {
    return new IllegalStateException(
        what + " in the tier store at " + where + " failed: " + e.getMessage(), e);
  }

  @Override
  public String describe() {
    return "ClickHouse tier store at " + where;
  }

  /** Nothing to release: the pool belongs to the {@link ControlDatabase}. */
  @Override
  public void close() {}
}
