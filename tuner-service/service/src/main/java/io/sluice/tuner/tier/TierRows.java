package io.sluice.tuner.tier;

import io.sluice.contracts.Tier;
import io.sluice.model.Json;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/** The reads both tier stores share, over each store's table sources ({@code FINAL} ones for ClickHouse). */
final class TierRows {
  static final TierRows H2 = new TierRows("tier_audit", "seq", "tier_decisions");
  static final TierRows CLICKHOUSE = new TierRows("tier_audit FINAL", "version", "tier_decisions FINAL");

  private final String audit;
  private final String auditSeq;
  private final String decisions;

  /** @param auditSeq the audit column read as the entry's sequence number */
  private TierRows(String audit, String auditSeq, String decisions) {
    this.audit = audit;
    this.auditSeq = auditSeq;
    this.decisions = decisions;
  }

  /** The newest audit entries first. */
  List<AuditEntry> audit(Connection c, int limit) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("SELECT " + auditSeq + ", at, actor, action, item_id, before_json, "
        + "after_json, version FROM " + audit + " ORDER BY " + auditSeq + " DESC LIMIT ?")) {
      ps.setInt(1, limit);
      List<AuditEntry> out = new ArrayList<>();
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.add(new AuditEntry(rs.getLong(1), rs.getLong(2), rs.getString(3), rs.getString(4), rs.getString(5),
              rs.getString(6), rs.getString(7), rs.getLong(8)));
        }
      }
      return out;
    }
  }

  /** The job's newest decisions first. */
  List<TierDecision> decisions(Connection c, String jobKey, int limit) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(
        "SELECT json FROM " + decisions + " WHERE job_key = ? ORDER BY seq DESC LIMIT ?")) {
      ps.setString(1, jobKey);
      ps.setInt(2, limit);
      List<TierDecision> out = new ArrayList<>();
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.add(Json.read(rs.getString(1), TierDecision.class));
        }
      }
      return out;
    }
  }

  /** The tier a decision counts for: the one admitted to, or the push tier that refused; null when not rolled out. */
  static Tier countedTier(TierDecision d) {
    if (d.outcome() == TierDecision.Outcome.ADMITTED) {
      return d.tier();
    }
    return d.outcome() == TierDecision.Outcome.REFUSED ? d.rolloutTier() : null;
  }

  /** Admissions and refusals decided in [from, to), per tier and queue, over the decisions kept. */
  List<TierStore.DecisionCount> decisionCounts(Connection c, long from, long to) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("SELECT tier, queue, outcome, COUNT(*) FROM " + decisions
        + " WHERE decided_at >= ? AND decided_at < ? AND tier IS NOT NULL AND tier <> '' GROUP BY tier, queue, outcome "
        + "ORDER BY tier, queue, outcome")) {
      ps.setLong(1, from);
      ps.setLong(2, to);
      List<TierStore.DecisionCount> out = new ArrayList<>();
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.add(new TierStore.DecisionCount(Tier.valueOf(rs.getString(1)), rs.getString(2),
              TierDecision.Outcome.valueOf(rs.getString(3)), rs.getLong(4)));
        }
      }
      return out;
    }
  }
}
