package io.sluice.tuner.tier;

import io.sluice.contracts.Tier;
import io.sluice.model.Json;
import io.sluice.tuner.store.H2Tables;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The tier store in the history store's own H2 database (DDL in the store's migration {@code V6__tuner_control.sql}). One
 * connection, opened on first use and reopened after a failure, used under this object's lock. A job keeps its
 * newest {@value #DECISIONS_PER_JOB} decisions (older ones are deleted as new ones come).
 */
final class H2TierStore implements TierStore {
  static final int DECISIONS_PER_JOB = 100;

  private final H2Tables tables;
  private final String where;
  private final int keep;

  H2TierStore(String url, String where) {
    this(url, where, DECISIONS_PER_JOB);
  }

  /** @param keep decisions kept per job */
  H2TierStore(String url, String where, int keep) {
    this.tables = new H2Tables(url);
    this.where = where;
    this.keep = keep;
  }

  private Connection conn() throws SQLException {
    return tables.get();
  }

  @Override
  public synchronized Optional<RuleSet> load() {
    try {
      Connection c = conn();
      Long version = null;
      try (Statement st = c.createStatement();
          ResultSet rs = st.executeQuery("SELECT v FROM tier_meta WHERE k = 'version'")) {
        if (rs.next()) {
          version = Long.parseLong(rs.getString(1));
        }
      }
      if (version == null) {
        return Optional.empty();
      }
      List<RolloutRule> rules = new ArrayList<>();
      List<DenyEntry> denies = new ArrayList<>();
      try (Statement st = c.createStatement();
          ResultSet rs = st.executeQuery("SELECT kind, json FROM tier_items ORDER BY kind, id")) {
        while (rs.next()) {
          if (rs.getString(1).equals("rule")) {
            rules.add(Json.read(rs.getString(2), RolloutRule.class));
          } else {
            denies.add(Json.read(rs.getString(2), DenyEntry.class));
          }
        }
      }
      return Optional.of(new RuleSet(version, rules, denies));
    } catch (SQLException | RuntimeException e) {
      throw failed("loading the rollout rules", e);
    }
  }

  @Override
  public synchronized void save(RuleSet next, AuditEntry a) {
    try {
      tables.transaction(c -> {
        try (Statement st = c.createStatement()) {
          st.executeUpdate("DELETE FROM tier_items");
        }
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO tier_items (kind, id, json) VALUES (?, ?, ?)")) {
          for (RolloutRule r : next.rules()) {
            ps.setString(1, "rule");
            ps.setString(2, r.id());
            ps.setString(3, Json.write(r));
            ps.addBatch();
          }
          for (DenyEntry d : next.denies()) {
            ps.setString(1, "deny");
            ps.setString(2, d.id());
            ps.setString(3, Json.write(d));
            ps.addBatch();
          }
          ps.executeBatch();
        }
        try (PreparedStatement ps = c.prepareStatement("MERGE INTO tier_meta (k, v) KEY (k) VALUES ('version', ?)")) {
          ps.setString(1, Long.toString(next.version()));
          ps.executeUpdate();
        }
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO tier_audit (at, actor, action, item_id, "
            + "before_json, after_json, version) VALUES (?, ?, ?, ?, ?, ?, ?)")) {
          ps.setLong(1, a.at());
          ps.setString(2, a.actor());
          ps.setString(3, a.action());
          ps.setString(4, a.itemId());
          ps.setString(5, a.before());
          ps.setString(6, a.after());
          ps.setLong(7, a.version());
          ps.executeUpdate();
        }
      });
    } catch (SQLException | RuntimeException e) {
      throw failed("saving the rollout rules", e);
    }
  }

  @Override
  public synchronized List<AuditEntry> audit(int limit) {
    try {
      return TierRows.H2.audit(conn(), limit);
    } catch (SQLException | RuntimeException e) {
      throw failed("reading the rule audit", e);
    }
  }

  @Override
  public synchronized void record(TierDecision d) {
    try {
      Connection c = conn();
      try (PreparedStatement ps = c.prepareStatement(
          "INSERT INTO tier_decisions (job_key, decided_at, json, tier, queue, outcome) VALUES (?, ?, ?, ?, ?, ?)")) {
        ps.setString(1, d.jobKey());
        ps.setLong(2, d.decidedAt());
        ps.setString(3, Json.write(d));
        Tier counted = TierRows.countedTier(d);
        ps.setString(4, counted == null ? null : counted.name());
        ps.setString(5, d.queue());
        ps.setString(6, d.outcome() == null ? null : d.outcome().name());
        ps.executeUpdate();
      }
      try (PreparedStatement ps = c.prepareStatement("DELETE FROM tier_decisions WHERE job_key = ? AND seq <= "
          + "(SELECT seq FROM tier_decisions WHERE job_key = ? ORDER BY seq DESC LIMIT 1 OFFSET ?)")) {
        ps.setString(1, d.jobKey());
        ps.setString(2, d.jobKey());
        ps.setInt(3, keep);
        ps.executeUpdate();
      }
    } catch (SQLException | RuntimeException e) {
      throw failed("recording a tier decision of " + d.jobKey(), e);
    }
  }

  @Override
  public synchronized List<DecisionCount> decisionCounts(long from, long to) {
    try {
      return TierRows.H2.decisionCounts(conn(), from, to);
    } catch (SQLException | RuntimeException e) {
      throw failed("counting tier decisions", e);
    }
  }


  @Override
  public synchronized List<TierDecision> decisions(String jobKey, int limit) {
    try {
      return TierRows.H2.decisions(conn(), jobKey, limit);
    } catch (SQLException | RuntimeException e) {
      throw failed("reading the tier decisions of " + jobKey, e);
    }
  }

  private IllegalStateException failed(String what, Exception e) {
    closeQuietly();
    return new IllegalStateException(what + " in the tier store at " + where + " failed: " + e.getMessage(), e);
  }

  private void closeQuietly() {
    tables.drop();
  }

  @Override
  public String describe() {
    return "H2 tier store at " + where;
  }

  @Override
  public synchronized void close() {
    closeQuietly();
  }
}
