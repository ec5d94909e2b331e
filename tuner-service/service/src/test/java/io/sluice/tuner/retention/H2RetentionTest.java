package io.sluice.tuner.retention;

import io.sluice.store.HistoryStores;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import org.junit.jupiter.api.io.TempDir;

/** The retention contract on an embedded H2 store in a temp dir. */
class H2RetentionTest extends RetentionContract {
  @TempDir Path dir;
  private int seq;

  @Override
  protected String freshUrl() {
    return "jdbc:h2:file:" + dir.resolve("store-" + (++seq)).toAbsolutePath();
  }

  @Override
  protected Connection controlTables(String url) throws SQLException {
    HistoryStores.migrate(url);
    return DriverManager.getConnection(url);
  }

  @Override
  protected void insertTierDecision(Connection c, String jobKey, long at) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "INSERT INTO tier_decisions (job_key, decided_at, json) " + "VALUES (?, ?, '{}')")) {
      ps.setString(1, jobKey);
      ps.setLong(2, at);
      ps.executeUpdate();
    }
  }

  @Override
  protected void insertTierAudit(Connection c, long version, long at) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "INSERT INTO tier_audit (at, actor, action, item_id, version) "
                + "VALUES (?, 'configuration', 'SEED', '*', ?)")) {
      ps.setLong(1, at);
      ps.setLong(2, version);
      ps.executeUpdate();
    }
  }

  @Override
  protected void freeze(Connection c, String jobKey, long at) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "INSERT INTO tuner_jobs (job_key, frozen, updated_at) " + "VALUES (?, TRUE, ?)")) {
      ps.setString(1, jobKey);
      ps.setLong(2, at);
      ps.executeUpdate();
    }
  }

  @Override
  protected boolean frozen(Connection c, String jobKey) throws SQLException {
    return single(c, "SELECT COUNT(*) FROM tuner_jobs WHERE frozen AND job_key = '" + jobKey + "'")
        == 1;
  }

  @Override
  protected long count(Connection c, String table) throws SQLException {
    return single(c, "SELECT COUNT(*) FROM " + table);
  }
}
