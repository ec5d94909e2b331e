package io.sluice.tuner.retention;

import io.sluice.store.HistoryStores;
import io.sluice.tuner.testing.Chdb;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The retention contract on ClickHouse's real engine (chdb behind the test HTTP front). */
class ClickHouseRetentionITCase extends RetentionContract {
  @RegisterExtension static final Chdb CHDB = new Chdb("retention");

  @Override
  protected String freshUrl() {
    return CHDB.freshUrl();
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
            "INSERT INTO tier_decisions (job_key, seq, decided_at, json) "
                + "VALUES (?, ?, ?, '{}')")) {
      ps.setString(1, jobKey);
      ps.setLong(2, at * 1000);
      ps.setLong(3, at);
      ps.executeUpdate();
    }
  }

  @Override
  protected void insertTierAudit(Connection c, long version, long at) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "INSERT INTO tier_audit (version, at, actor, action, item_id) "
                + "VALUES (?, ?, 'configuration', 'SEED', '*')")) {
      ps.setLong(1, version);
      ps.setLong(2, at);
      ps.executeUpdate();
    }
  }

  @Override
  protected void freeze(Connection c, String jobKey, long at) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "INSERT INTO tuner_jobs (job_key, frozen, updated_at, version) "
                + "VALUES (?, 1, ?, ?)")) {
      ps.setString(1, jobKey);
      ps.setLong(2, at);
      ps.setLong(3, at * 1000);
      ps.executeUpdate();
    }
  }

  @Override
  protected boolean frozen(Connection c, String jobKey) throws SQLException {
    return single(
            c,
            "SELECT count() FROM tuner_jobs FINAL WHERE frozen = 1 AND job_key = '" + jobKey + "'")
        == 1;
  }

  @Override
  protected long count(Connection c, String table) throws SQLException {
    return single(c, "SELECT count() FROM " + table);
  }
}
