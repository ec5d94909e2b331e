package io.sluice.tuner.tier.outcome;

import io.sluice.contracts.Tier;
import io.sluice.model.Json;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The reads both outcome stores share, over their table sources ({@code FINAL} ones for ClickHouse, where only a
 * key's newest version counts).
 */
final class OutcomeRows {
  static final OutcomeRows H2 = new OutcomeRows("tier_runs", "tier_outcome_events", "tier_alerts");
  static final OutcomeRows CLICKHOUSE = new OutcomeRows("tier_runs FINAL", "tier_outcome_events FINAL",
      "tier_alerts FINAL");

  private final String runs;
  private final String events;
  private final String alerts;

  private OutcomeRows(String runs, String events, String alerts) {
    this.runs = runs;
    this.events = events;
    this.alerts = alerts;
  }

  Optional<RunOutcome> run(Connection c, String runKey, int attempt) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("SELECT json FROM " + runs + " WHERE run_key = ? AND attempt = ?")) {
      ps.setString(1, runKey);
      ps.setInt(2, attempt);
      return json(ps, RunOutcome.class).stream().findFirst();
    }
  }

  /** The attempts of a run, oldest first. */
  List<RunOutcome> attempts(Connection c, String runKey) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("SELECT json FROM " + runs + " WHERE run_key = ? ORDER BY attempt")) {
      ps.setString(1, runKey);
      return json(ps, RunOutcome.class);
    }
  }

  /**
   * Attempts first reported since {@code since}, newest first, of one requested or ran tier and/or queue (these live
   * in the JSON, so they are filtered after reading; the window bounds the rows read).
   */
  List<RunOutcome> runs(Connection c, long since, Tier tier, String queue, int limit) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(
        "SELECT json FROM " + runs + " WHERE first_at >= ? ORDER BY first_at DESC, run_key, attempt")) {
      ps.setLong(1, since);
      List<RunOutcome> out = new ArrayList<>();
      for (RunOutcome o : json(ps, RunOutcome.class)) {
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

  /** Counts of the stored events in [from, to) (epoch ms), per tier, queue, outcome and reason. */
  List<OutcomeStore.CountRow> counts(Connection c, long from, long to) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("SELECT tier, queue, outcome, reason, COUNT(*) FROM " + events
        + " WHERE at >= ? AND at < ? GROUP BY tier, queue, outcome, reason ORDER BY tier, queue, outcome, reason")) {
      ps.setLong(1, from);
      ps.setLong(2, to);
      return countRows(ps);
    }
  }

  /** Counts of the stored events since {@code since}, optionally of one tier and/or queue. */
  List<OutcomeStore.CountRow> counts(Connection c, long since, Tier tier, String queue) throws SQLException {
    try (PreparedStatement ps = filtered(c, "SELECT tier, queue, outcome, reason, COUNT(*) FROM " + events
        + " WHERE at >= ?", since, tier, queue, " GROUP BY tier, queue, outcome, reason ORDER BY tier, queue, outcome, "
        + "reason")) {
      return countRows(ps);
    }
  }

  /** Alerts raised since {@code since}, newest first, optionally of one tier and/or queue. */
  List<TierAlert> alerts(Connection c, long since, Tier tier, String queue, int limit) throws SQLException {
    try (PreparedStatement ps = filtered(c, "SELECT json FROM " + alerts + " WHERE raised_at >= ?", since, tier, queue,
        " ORDER BY seq DESC LIMIT " + limit)) {
      return json(ps, TierAlert.class);
    }
  }

  /** {@code head} (ending in a {@code >= ?} on the time) with optional tier and queue conditions, then {@code tail}. */
  private static PreparedStatement filtered(Connection c, String head, long since, Tier tier, String queue,
      String tail) throws SQLException {
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

  /** Rows of one column, the JSON of a {@code type}. */
  private static <T> List<T> json(PreparedStatement ps, Class<T> type) throws SQLException {
    List<T> out = new ArrayList<>();
    try (ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        out.add(Json.read(rs.getString(1), type));
      }
    }
    return out;
  }
}
