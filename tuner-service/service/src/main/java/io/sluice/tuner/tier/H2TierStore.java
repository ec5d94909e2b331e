package io.sluice.tuner.tier;

import io.sluice.model.Json;
import io.sluice.tuner.store.ControlDatabase;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * The tier store in the history store's own H2 database (DDL in the store's migration {@code
 * V6__tuner_control.sql}), over the {@link ControlDatabase} pool. A save (items, version, audit
 * entry) and a decision with the trimming of the job's old ones are each one transaction. A job
 * keeps its newest {@value #DECISIONS_PER_JOB} decisions.
 */
final class H2TierStore implements TierStore {
  static final int DECISIONS_PER_JOB = 100;

  private final ControlDatabase db;
  private final String where;
  private final int keep;

  H2TierStore(ControlDatabase db, String where) {
    this(db, where, DECISIONS_PER_JOB);
  }

  /**
   * @param keep decisions kept per job
   */
  H2TierStore(ControlDatabase db, String where, int keep) {
    this.db = db;
    this.where = where;
    this.keep = keep;
  }

  @Override
  public Optional<RuleSet> load() {
    try {
      return db.inTransaction(
          tx -> {
            JdbcClient jdbc = db.jdbc();
            Optional<Long> version =
                jdbc.sql("SELECT v FROM tier_meta WHERE k = 'version'")
                    .query((rs, n) -> Long.parseLong(rs.getString(1)))
                    .optional();
            if (version.isEmpty()) {
              return Optional.<RuleSet>empty();
            }
            List<RolloutRule> rules = new ArrayList<>();
            List<DenyEntry> denies = new ArrayList<>();
            jdbc.sql("SELECT kind, json FROM tier_items ORDER BY kind, id")
                .query(
                    rs -> {
                      if (rs.getString(1).equals("rule")) {
                        rules.add(Json.read(rs.getString(2), RolloutRule.class));
                      } else {
                        denies.add(Json.read(rs.getString(2), DenyEntry.class));
                      }
                    });
            return Optional.of(new RuleSet(version.get(), rules, denies));
          });
    } catch (RuntimeException e) {
      throw failed("loading the rollout rules", e);
    }
  }

  @Override
  public void save(RuleSet next, AuditEntry a) {
    try {
      db.inTransaction(
          tx -> {
            JdbcClient jdbc = db.jdbc();
            jdbc.sql("DELETE FROM tier_items").update();
            List<Object[]> items = new ArrayList<>();
            for (RolloutRule r : next.rules()) {
              items.add(new Object[] {"rule", r.id(), Json.write(r)});
            }
            for (DenyEntry d : next.denies()) {
              items.add(new Object[] {"deny", d.id(), Json.write(d)});
            }
            db.batch("INSERT INTO tier_items (kind, id, json) VALUES (?, ?, ?)", items);
            jdbc.sql("MERGE INTO tier_meta (k, v) KEY (k) VALUES ('version', ?)")
                .param(Long.toString(next.version()))
                .update();
            jdbc.sql(TierRows.insert("tier_audit", TierRows.AUDIT_COLUMNS))
                .params(TierRows.auditValues(a))
                .update();
            return null;
          });
    } catch (RuntimeException e) {
      throw failed("saving the rollout rules", e);
    }
  }

  @Override
  public List<AuditEntry> audit(int limit) {
    try {
      return TierRows.H2.audit(db.jdbc(), limit);
    } catch (RuntimeException e) {
      throw failed("reading the rule audit", e);
    }
  }

  @Override
  public void record(TierDecision d) {
    recordAll(List.of(d));
  }

  /**
   * One transaction: the decisions inserted as one batch, then each of their jobs trimmed to its
   * newest {@code keep}.
   */
  @Override
  public void recordAll(List<TierDecision> decisions) {
    if (decisions.isEmpty()) {
      return;
    }
    List<Object[]> rows = new ArrayList<>(decisions.size());
    java.util.Set<String> jobs = new java.util.LinkedHashSet<>();
    for (TierDecision d : decisions) {
      rows.add(TierRows.decisionValues(d, null));
      jobs.add(d.jobKey());
    }
    try {
      db.inTransaction(
          tx -> {
            db.batch(TierRows.insert("tier_decisions", TierRows.DECISION_COLUMNS), rows);
            List<Object[]> trims = new ArrayList<>(jobs.size());
            for (String job : jobs) {
              trims.add(new Object[] {job, job, keep});
            }
            db.batch(
                "DELETE FROM tier_decisions WHERE job_key = ? AND seq <= "
                    + "(SELECT seq FROM tier_decisions WHERE job_key = ? ORDER BY seq DESC LIMIT 1 OFFSET ?)",
                trims);
            return null;
          });
    } catch (RuntimeException e) {
      throw failed(
          "recording "
              + decisions.size()
              + " tier decision(s) of "
              + jobs.size()
              + " job(s), the first "
              + decisions.get(0).jobKey(),
          e);
    }
  }

  @Override
  public List<DecisionCount> decisionCounts(long from, long to) {
    try {
      return TierRows.H2.decisionCounts(db.jdbc(), from, to);
    } catch (RuntimeException e) {
      throw failed("counting tier decisions", e);
    }
  }

  @Override
  public List<TierDecision> decisions(String jobKey, int limit) {
    try {
      return TierRows.H2.decisions(db.jdbc(), jobKey, limit);
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
    return "H2 tier store at " + where;
  }

  /** Nothing to release: the pool belongs to the {@link ControlDatabase}. */
  @Override
  public void close() {}
}
