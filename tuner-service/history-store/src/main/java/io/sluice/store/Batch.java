package io.sluice.store;

import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * A JDBC batch on one statement that is sent every {@code limit} rows and once more for the rest.
 */
final class Batch {
  private final PreparedStatement ps;
  private final int limit;
  private int pending;

  Batch(PreparedStatement ps, int limit) {
    this.ps = ps;
    this.limit = limit;
  }

  /**
   * Adds the statement's bound parameters as a row; sends the batch when it holds {@code limit}
   * rows.
   */
  void add() throws SQLException {
    ps.addBatch();
    if (++pending == limit) {
      flush();
    }
  }

  /** Sends the rows added since the last send, if any. */
  void flush() throws SQLException {
    if (pending > 0) {
      ps.executeBatch();
      pending = 0;
    }
  }
}
