package io.sluice.tuner.tier.outcome;

import io.sluice.contracts.Tier;
import io.sluice.model.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * The reads both outcome stores share, over their table sources ({@code FINAL} ones for ClickHouse,
 * where only a key's newest version counts).
 */
final class OutcomeRows {
  static final OutcomeRows H2 = new OutcomeRows("tier_runs", "tier_outcome_events", "tier_alerts");
  static final OutcomeRows CLICKHOUSE =
      new OutcomeRows("tier_runs FINAL", "tier_outcome_events FINAL", "tier_alerts FINAL");

  private final String runs;
  private final String events;
  private final String alerts;

  private OutcomeRows(String runs, String events, String alerts) {
    this.runs = runs;
    this.events = events;
    this.alerts = alerts;
  }

  Optional<RunOutcome> run(JdbcClient jdbc, String runKey, int attempt) {
    return jdbc.sql("SELECT json FROM " + runs + " WHERE run_key = ? AND attempt = ?")
        .params(runKey, attempt)
        .query(json(RunOutcome.class))
        .optional();
  }

  /** Every attempt of the given runs, in no particular order (one query). */
  List<RunOutcome> attemptsOf(JdbcClient jdbc, java.util.Collection<String> runKeys) {
    if (runKeys.isEmpty()) {
      return List.of();
    }
    return jdbc.sql(
            "SELECT json FROM "
                + runs
                + " WHERE run_key IN ("
                + String.join(", ", java.util.Collections.nCopies(runKeys.size(), "?"))
                + ")")
        .params(new ArrayList<>(runKeys))
        .query(json(RunOutcome.class))
        .list();
  }

  /** The attempts of a run, oldest first. */
  List<RunOutcome> attempts(JdbcClient jdbc, String runKey) {
    return jdbc.sql("SELECT json FROM " + runs + " WHERE run_key = ? ORDER BY attempt")
        .param(runKey)
        .query(json(RunOutcome.class))
        .list();
  }

  /**
   * Attempts first reported since {@code since}, newest first, of one requested or ran tier and/or
   * queue (these live in the JSON, so they are filtered after reading; the window bounds the rows
   * read).
   */
  List<RunOutcome> runs(JdbcClient jdbc, long since, Tier tier, String queue, int limit) {
    List<RunOutcome> out = new ArrayList<>();
    for (RunOutcome o :
        jdbc.sql(
                "SELECT json FROM "
                    + runs
                    + " WHERE first_at >= ? ORDER BY first_at DESC, run_key, "
                    + "attempt")
            .param(since)
            .query(json(RunOutcome.class))
            .list()) {
      if ((tier == null || tier == o.requestedTier() || tier == o.ranTier())
          && (queue == null
              || queue.equals(o.queue() == null ? OutcomeMerge.NO_QUEUE : o.queue()))) {
        out.add(o);
        if (out.size() >= limit) {
          break;
        }
      }
    }
    return out;
  }

  /** Counts of the stored events in [from, to) (epoch ms), per tier, queue, outcome and reason. */
  List<OutcomeStore.CountRow> counts(JdbcClient jdbc, long from, long to) {
    return jdbc.sql(
            "SELECT tier, queue, outcome, reason, COUNT(*) FROM "
                + events
                + " WHERE at >= ? AND at < ? "
                + "GROUP BY tier, queue, outcome, reason ORDER BY tier, queue, outcome, reason")
        .params(from, to)
        .query(COUNT_ROW)
        .list();
  }

  /** Counts of the stored events since {@code since}, optionally of one tier and/or queue. */
  List<OutcomeStore.CountRow> counts(JdbcClient jdbc, long since, Tier tier, String queue) {
    return filtered(
            jdbc,
            "SELECT tier, queue, outcome, reason, COUNT(*) FROM " + events + " WHERE at >= ?",
            since,
            tier,
            queue,
            " GROUP BY tier, queue, outcome, reason ORDER BY tier, queue, outcome, reason")
        .query(COUNT_ROW)
        .list();
  }

  /** Alerts raised since {@code since}, newest first, optionally of one tier and/or queue. */
  List<TierAlert> alerts(JdbcClient jdbc, long since, Tier tier, String queue, int limit) {
    return filtered(
            jdbc,
            "SELECT json FROM " + alerts + " WHERE raised_at >= ?",
            since,
            tier,
            queue,
            " ORDER BY seq DESC LIMIT " + limit)
        .query(json(TierAlert.class))
        .list();
  }

  /**
   * {@code head} (ending in a {@code >= ?} on the time) with optional tier and queue conditions,
   * then {@code tail}.
   */
  private static JdbcClient.StatementSpec filtered(
      JdbcClient jdbc, String head, long since, Tier tier, String queue, String tail) {
    List<Object> args = new ArrayList<>();
    args.add(since);
    if (tier != null) {
      args.add(tier.name());
    }
    if (queue != null) {
      args.add(queue);
    }
    return jdbc.sql(
            head
                + (tier == null ? "" : " AND tier = ?")
                + (queue == null ? "" : " AND queue = ?")
                + tail)
        .params(args);
  }

  /** A row of (tier, queue, outcome label, reason, count). */
  static final RowMapper<OutcomeStore.CountRow> COUNT_ROW =
      (rs, n) ->
          new OutcomeStore.CountRow(
              Tier.valueOf(rs.getString(1)),
              rs.getString(2),
              OutcomeMerge.Kind.ofLabel(rs.getString(3)),
              rs.getString(4),
              rs.getLong(5));

  /** A row of one column, the JSON of a {@code type}. */
  private static <T> RowMapper<T> json(Class<T> type) {
    return (rs, n) -> Json.read(rs.getString(1), type);
  }
}
