package io.sluice.tuner.store;

import io.sluice.model.Json;
import io.sluice.store.DecisionSql;
import io.sluice.tuner.policy.Decision;
import io.sluice.tuner.policy.Evaluation;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** The row shape both decision logs share: the columns of {@code tuner_decisions}, read and bound in one place. */
final class DecisionRows {
  /** The columns an insert binds, in {@link #bind}'s order. */
  static final String COLUMNS = "job_key, run_key, run_start, kind, conf_key, direction, conf_value, reason, evidence, "
      + "decided_at";

  private DecisionRows() {}

  /** A job's decisions from {@code source} (a table, or a table with {@code FINAL}), oldest run first. */
  static List<Decision> read(Connection c, String source, String jobKey) throws SQLException {
    return DecisionSql.read(c, source, jobKey).stream()
        .map(d -> new Decision(d.runKey(), d.runStart(), Evaluation.valueOf(d.kind()), d.key(), d.direction(),
            d.value(), d.reason(), d.evidence()))
        .toList();
  }

  /** How many runs that started in [fromMs, toMs) were rolled back in {@code source} (a run counts once). */
  static long rolledBackRuns(Connection c, String source, long fromMs, long toMs) throws SQLException {
    String sql = "SELECT COUNT(*) FROM (SELECT DISTINCT job_key, run_key FROM " + source
        + " WHERE kind = 'ROLLED_BACK' AND run_start >= ? AND run_start < ?) AS rolled";
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      ps.setLong(1, fromMs);
      ps.setLong(2, toMs);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }

  /** Binds a decision to the ten parameters of an insert of {@link #COLUMNS}; the reason cut to {@code maxReason}. */
  static void bind(PreparedStatement ps, String jobKey, Decision d, long nowMs, int maxReason) throws SQLException {
    String reason = d.reason() == null ? "" : d.reason();
    ps.setString(1, jobKey);
    ps.setString(2, d.runKey());
    ps.setLong(3, d.runStart());
    ps.setString(4, d.kind().name());
    ps.setString(5, d.key());
    ps.setString(6, d.direction());
    ps.setString(7, d.value() == null ? "" : d.value());
    ps.setString(8, reason.length() <= maxReason ? reason : reason.substring(0, maxReason));
    ps.setString(9, Json.write(d.evidence()));
    ps.setLong(10, nowMs);
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
