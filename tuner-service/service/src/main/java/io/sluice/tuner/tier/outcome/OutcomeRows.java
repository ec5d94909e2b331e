package io.sluice.tuner.tier.outcome;

import io.sluice.model.Json;
import io.sluice.tuner.tier.Tier;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/** The SQL shapes both outcome stores share: windowed filters and reading rows back. */
final class OutcomeRows {
  private OutcomeRows() {}

  /** {@code head} (ending in a {@code >= ?} on the time) with optional tier and queue conditions, then {@code tail}. */
  static PreparedStatement filtered(Connection c, String head, long since, Tier tier, String queue, String tail)
      throws SQLException {
    String sql = head + (tier == null ? "" : " AND tier = ?") + (queue == null ? "" : " AND queue = ?") + tail;
    PreparedStatement ps = c.prepareStatement(sql);
    int i = 1;
    ps.setLong(i++, since);
    if (tier != null) {
      ps.setString(i++, tier.name());
    }
    if (queue != null) {
      ps.setString(i, queue);
    }
    return ps;
  }

  /** Rows of (tier, queue, outcome label, reason, count). */
  static List<OutcomeStore.CountRow> countRows(PreparedStatement ps) throws SQLException {
    List<OutcomeStore.CountRow> out = new ArrayList<>();
    try (ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        out.add(new OutcomeStore.CountRow(Tier.valueOf(rs.getString(1)), rs.getString(2),
            OutcomeMerge.Kind.ofLabel(rs.getString(3)), rs.getString(4), rs.getLong(5)));
      }
    }
    return out;
  }

  /** Rows of one column, the JSON of a {@link RunOutcome}. */
  static List<RunOutcome> runs(PreparedStatement ps) throws SQLException {
    return json(ps, RunOutcome.class);
  }

  /** Rows of one column, the JSON of a {@code type}. */
  static <T> List<T> json(PreparedStatement ps, Class<T> type) throws SQLException {
    List<T> out = new ArrayList<>();
    try (ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        out.add(Json.read(rs.getString(1), type));
      }
    }
    return out;
  }

  /**
   * The first {@code limit} attempts of one requested or ran tier and/or queue (these live in the JSON, so they are
   * filtered after reading; the window bounds the rows read).
   */
  static List<RunOutcome> matching(List<RunOutcome> runs, Tier tier, String queue, int limit) {
    List<RunOutcome> out = new ArrayList<>();
    for (RunOutcome o : runs) {
      if ((tier == null || tier == o.requestedTier() || tier == o.ranTier())
          && (queue == null || queue.equals(o.queue() == null ? OutcomeMerge.NO_QUEUE : o.queue()))) {
        out.add(o);
        if (out.size() >= limit) {
          break;
        }
      }
    }
    return out;
  }
}
