package io.sluice.tuner.store;

import io.sluice.model.Json;
import io.sluice.store.DecisionSql;
import io.sluice.store.TuningDecision;
import io.sluice.tuner.policy.Decision;
import io.sluice.tuner.policy.Evaluation;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * The row shape both decision logs share: the columns of {@code tuner_decisions}, read and bound in
 * one place.
 */
final class DecisionRows {
  /** The columns an insert binds, in {@link #bind}'s order. */
  static final String COLUMNS =
      "job_key, run_key, run_start, kind, conf_key, direction, conf_value, reason, evidence, "
          + "decided_at";

  private DecisionRows() {}

  /**
   * A job's decisions from {@code source} (a table, or a table with {@code FINAL}), oldest run
   * first: the decision log's one query ({@link DecisionSql}), shared with the store's readers.
   */
  static List<Decision> read(JdbcClient jdbc, String source, String jobKey) {
    return jdbc.sql(DecisionSql.select(source))
        .param(jobKey)
        .query((rs, n) -> decision(DecisionSql.row(rs, jobKey)))
        .list();
  }

  private static Decision decision(TuningDecision d) {
    return new Decision(
        d.runKey(),
        d.runStart(),
        Evaluation.valueOf(d.kind()),
        d.key(),
        d.direction(),
        d.value(),
        d.reason(),
        d.evidence());
  }

  /**
   * How many runs that started in [fromMs, toMs) were rolled back in {@code source} (a run counts
   * once).
   */
  static long rolledBackRuns(JdbcClient jdbc, String source, long fromMs, long toMs) {
    return jdbc.sql(
            "SELECT COUNT(*) FROM (SELECT DISTINCT job_key, run_key FROM "
                + source
                + " WHERE kind = 'ROLLED_BACK' AND run_start >= ? AND run_start < ?) AS rolled")
        .params(fromMs, toMs)
        .query(Long.class)
        .single();
  }

  /**
   * The ten values of an insert of {@link #COLUMNS} for a decision; the reason cut to {@code
   * maxReason}.
   */
  static Object[] values(String jobKey, Decision d, long nowMs, int maxReason) {
    String reason = d.reason() == null ? "" : d.reason();
    return new Object[] {
      jobKey,
      d.runKey(),
      d.runStart(),
      d.kind().name(),
      d.key(),
      d.direction(),
      d.value() == null ? "" : d.value(),
      reason.length() <= maxReason ? reason : reason.substring(0, maxReason),
      Json.write(d.evidence()),
      nowMs
    };
  }

  /** The identities (run, kind, key) of logged decisions: a decision is logged once. */
  static Set<String> ids(List<Decision> logged) {
    Set<String> out = new HashSet<>();
    for (Decision d : logged) {
      out.add(id(d));
    }
    return out;
  }

  static String id(Decision d) {
    return d.runKey() + "\u0000" + d.kind() + "\u0000" + d.key();
  }
}
