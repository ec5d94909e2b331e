package io.sluice.tuner.store;

import com.fasterxml.jackson.core.type.TypeReference;
import io.sluice.model.Json;
import io.sluice.tuner.policy.Decision;
import io.sluice.tuner.policy.Evaluation;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
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

  private static final TypeReference<Map<String, Double>> EVIDENCE = new TypeReference<>() {};

  private DecisionRows() {}

  /**
   * A job's decisions from {@code source} (a table, or a table with {@code FINAL}), oldest run
   * first.
   */
  static List<Decision> read(JdbcClient jdbc, String source, String jobKey) {
    return jdbc.sql(
            "SELECT run_key, run_start, kind, conf_key, direction, conf_value, reason, evidence FROM "
                + source
                + " WHERE job_key = ? ORDER BY run_start, run_key, kind, conf_key")
        .param(jobKey)
        .query(
            (rs, n) ->
                new Decision(
                    rs.getString(1),
                    rs.getLong(2),
                    Evaluation.valueOf(rs.getString(3)),
                    rs.getString(4),
                    rs.getString(5),
                    rs.getString(6),
                    rs.getString(7),
                    evidence(rs.getString(8))))
        .list();
  }

  private static Map<String, Double> evidence(String json) {
    try {
      return Json.mapper().readValue(json, EVIDENCE);
    } catch (IOException e) {
      throw new UncheckedIOException("unreadable evidence " + json, e);
    }
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
