package io.sluice.tuner.retention;

import io.sluice.tuner.store.ControlDatabase;

/**
 * Deletes old rows from tuner-service's own append-only tables in the history store's database (H2
 * or ClickHouse), through the {@link ControlDatabase} pool: {@code DELETE ... WHERE column <
 * cut-off}, counted first.
 */
final class ControlTables {
  private final ControlDatabase db;

  ControlTables(ControlDatabase db) {
    this.db = db;
  }

  /**
   * Deletes the rows of {@code table} whose {@code column} (epoch ms) is before {@code before};
   * returns how many.
   */
  long prune(String table, String column, long before) {
    long n =
        db.jdbc()
            .sql("SELECT COUNT(*) FROM " + table + " WHERE " + column + " < ?")
            .param(before)
            .query(Long.class)
            .single();
    if (n > 0) {
      db.jdbc().sql("DELETE FROM " + table + " WHERE " + column + " < ?").param(before).update();
    }
    return n;
  }
}
