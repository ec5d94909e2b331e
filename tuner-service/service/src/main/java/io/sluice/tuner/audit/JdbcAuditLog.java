package io.sluice.tuner.audit;

import io.sluice.tuner.store.ControlDatabase;
import java.util.ArrayList;
import java.util.List;

/**
 * The audit log as table {@code sluice_audit} of the history store's database: H2 (a plain table)
 * or ClickHouse (a MergeTree ordered by time), created by the history store's schema migrations,
 * reached through the {@link ControlDatabase} pool.
 */
public final class JdbcAuditLog implements AuditLog {
  private final ControlDatabase db;

  public JdbcAuditLog(ControlDatabase db) {
    this.db = db;
  }

  @Override
  public void append(AuditRecord r) {
    try {
      db.jdbc()
          .sql(
              "INSERT INTO sluice_audit (id, at, actor, action, target, before_state, after_state) "
                  + "VALUES (?, ?, ?, ?, ?, ?, ?)")
          .params(r.id(), r.at(), r.actor(), r.action(), r.target(), r.before(), r.after())
          .update();
    } catch (RuntimeException e) {
      throw failed(e);
    }
  }

  @Override
  public List<AuditRecord> find(AuditQuery q) {
    StringBuilder sql =
        new StringBuilder(
            "SELECT id, at, actor, action, target, before_state, after_state FROM "
                + "sluice_audit WHERE 1 = 1");
    List<Object> args = new ArrayList<>();
    filter(sql, args, "actor", q.actor());
    filter(sql, args, "action", q.action());
    filter(sql, args, "target", q.target());
    sql.append(" ORDER BY at DESC, id DESC LIMIT ")
        .append(q.limit())
        .append(" OFFSET ")
        .append(q.offset());
    try {
      return db.jdbc()
          .sql(sql.toString())
          .params(args)
          .query(
              (rs, n) ->
                  new AuditRecord(
                      rs.getString(1),
                      rs.getLong(2),
                      rs.getString(3),
                      rs.getString(4),
                      rs.getString(5),
                      rs.getString(6),
                      rs.getString(7)))
          .list();
    } catch (RuntimeException e) {
      throw failed(e);
    }
  }

  private static void filter(StringBuilder sql, List<Object> args, String column, String value) {
    if (value != null && !value.isBlank()) {
      sql.append(" AND ").append(column).append(" = ?");
      args.add(value.trim());
    }
  }

  private IllegalStateException failed(RuntimeException e) {
    return new IllegalStateException("audit log at " + db.where() + ": " + e.getMessage(), e);
  }

  /** Nothing to release: the pool belongs to the {@link ControlDatabase}. */
  @Override
  public void close() {}
}
