package io.sluice.tuner.tier;

import io.sluice.contracts.Tier;
import io.sluice.model.Json;
import java.util.List;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * The rows both tier stores share: the reads, over each store's table sources ({@code FINAL} ones
 * for ClickHouse), and the values an audit entry is written with.
 */
final class TierRows {
  static final TierRows H2 = new TierRows("tier_audit", "seq", "tier_decisions");
  static final TierRows CLICKHOUSE =
      new TierRows("tier_audit FINAL", "version", "tier_decisions FINAL");

  private final String audit;
  private final String auditSeq;
  private final String decisions;

  /**
   * @param auditSeq the audit column read as the entry's sequence number
   */
  private TierRows(String audit, String auditSeq, String decisions) {
    this.audit = audit;
    this.auditSeq = auditSeq;
    this.decisions = decisions;
  }

  /** The newest audit entries first. */
  List<AuditEntry> audit(JdbcClient jdbc, int limit) {
    return jdbc.sql(
            "SELECT "
                + auditSeq
                + ", at, actor, action, item_id, before_json, after_json, version FROM "
                + audit
                + " ORDER BY "
                + auditSeq
                + " DESC LIMIT ?")
        .param(limit)
        .query(
            (rs, n) ->
                new AuditEntry(
                    rs.getLong(1),
                    rs.getLong(2),
                    rs.getString(3),
                    rs.getString(4),
                    rs.getString(5),
                    rs.getString(6),
                    rs.getString(7),
                    rs.getLong(8)))
        .list();
  }

  /** The job's newest decisions first. */
  List<TierDecision> decisions(JdbcClient jdbc, String jobKey, int limit) {
    return jdbc.sql(
            "SELECT json FROM " + decisions + " WHERE job_key = ? ORDER BY seq DESC LIMIT ?")
        .params(jobKey, limit)
        .query((rs, n) -> Json.read(rs.getString(1), TierDecision.class))
        .list();
  }

  /** The columns an audit entry is written to, in {@link #auditValues}'s order. */
  static final String AUDIT_COLUMNS =
      "version, at, actor, action, item_id, before_json, after_json";

  /** An audit entry's values for {@link #AUDIT_COLUMNS} (its version is the rule set's). */
  static Object[] auditValues(AuditEntry a) {
    return new Object[] {
      a.version(), a.at(), a.actor(), a.action(), a.itemId(), a.before(), a.after()
    };
  }

  /** The columns a decision is written to, in {@link #decisionValues}'s order. */
  static final String DECISION_COLUMNS = "job_key, decided_at, json, tier, queue, outcome";

  /**
   * A decision's values for {@link #DECISION_COLUMNS}, with {@code absent} where it has none (null
   * on H2; ClickHouse's columns are not nullable: the empty string).
   */
  static Object[] decisionValues(TierDecision d, Object absent) {
    Tier counted = countedTier(d);
    return new Object[] {
      d.jobKey(),
      d.decidedAt(),
      Json.write(d),
      counted == null ? absent : counted.name(),
      d.queue() == null ? absent : d.queue(),
      d.outcome() == null ? absent : d.outcome().name()
    };
  }

  /** {@code INSERT INTO table (columns) VALUES (?, ...)}, one placeholder per column. */
  static String insert(String table, String columns) {
    int n = columns.split(",").length;
    return "INSERT INTO " + table + " (" + columns + ") VALUES (" + "?, ".repeat(n - 1) + "?)";
  }

  /**
   * The tier a decision counts for: the one admitted to, or the push tier that refused; null when
   * not rolled out.
   */
  static Tier countedTier(TierDecision d) {
    if (d.outcome() == TierDecision.Outcome.ADMITTED) {
      return d.tier();
    }
    return d.outcome() == TierDecision.Outcome.REFUSED ? d.rolloutTier() : null;
  }

  /** Admissions and refusals decided in [from, to), per tier and queue, over the decisions kept. */
  List<TierStore.DecisionCount> decisionCounts(JdbcClient jdbc, long from, long to) {
    return jdbc.sql(
            "SELECT tier, queue, outcome, COUNT(*) FROM "
                + decisions
                + " WHERE decided_at >= ? AND "
                + "decided_at < ? AND tier IS NOT NULL AND tier <> '' GROUP BY tier, queue, outcome ORDER BY tier, queue, outcome")
        .params(from, to)
        .query(
            (rs, n) ->
                new TierStore.DecisionCount(
                    Tier.valueOf(rs.getString(1)),
                    rs.getString(2),
                    TierDecision.Outcome.valueOf(rs.getString(3)),
                    rs.getLong(4)))
        .list();
  }
}
