package io.sluice.store;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;
import org.flywaydb.core.api.output.MigrateResult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies a store's schema migrations with Flyway: the {@code V<n>__<what>.sql} scripts under one
 * class-path location, recorded in {@value #HISTORY_TABLE}. This is the one owner of the database's
 * schema: the history store, tuner-service's own tables and the audit log are all in these scripts,
 * whoever opens the database first applies them.
 *
 * <p>Databases created before Flyway kept their applied version in a table {@value #LEGACY_TABLE}
 * (one row per script, the same scripts). Such a database is baselined at that version, so that
 * only the scripts newer than it run; a non-empty database without either table (e.g. one whose
 * tables an operator created from the cluster DDL) is baselined at 0, which is safe because every
 * script is written to find its objects already in place.
 */
final class SchemaMigrations {
  private static final Logger LOG = LoggerFactory.getLogger(SchemaMigrations.class);
  static final String HISTORY_TABLE = "flyway_schema_history";
  static final String LEGACY_TABLE = "schema_version";

  /**
   * One migration at a time in this JVM (ClickHouse has no lock Flyway could take; H2's is released
   * by its DDL).
   */
  private static final Object LOCK = new Object();

  /**
   * The URLs this JVM has migrated, so that components reaching their tables later need not ask
   * Flyway again.
   */
  private static final Set<String> MIGRATED = ConcurrentHashMap.newKeySet();

  private SchemaMigrations() {}

  /**
   * Migrates the database behind {@code url} to the newest script under {@code location}.
   *
   * @param existing an open connection to the same database, used to read the pre-Flyway version
   * @param props the driver properties (credentials, timeouts) Flyway's own connection gets
   */
  static MigrateResult apply(String url, Properties props, Connection existing, String location)
      throws SQLException {
    synchronized (LOCK) {
      MigrateResult r = applyAlone(url, props, existing, location);
      MIGRATED.add(url);
      return r;
    }
  }

  /** True once this JVM has migrated the database at {@code url}. */
  static boolean migrated(String url) {
    return MIGRATED.contains(url);
  }

  private static MigrateResult applyAlone(
      String url, Properties props, Connection existing, String location) throws SQLException {
    int legacy = legacyVersion(existing);
    Map<String, String> jdbc = new HashMap<>();
    String user = null;
    String password = null;
    for (String name : props.stringPropertyNames()) {
      switch (name) {
        case "user" -> user = props.getProperty(name);
        case "password" -> password = props.getProperty(name);
        default -> jdbc.put(name, props.getProperty(name));
      }
    }
    Flyway flyway =
        Flyway.configure(SchemaMigrations.class.getClassLoader())
            .dataSource(flywayUrl(url), user, password)
            .jdbcProperties(jdbc)
            .locations("classpath:" + location)
            .failOnMissingLocations(true)
            .table(HISTORY_TABLE)
            .baselineOnMigrate(true)
            .baselineVersion(Integer.toString(legacy))
            .baselineDescription(
                legacy > 0
                    ? "applied before Flyway (" + LEGACY_TABLE + ")"
                    : "<< Flyway Baseline >>")
            // unlike Flyway's default ("*:future"), a version applied by newer code than this fails
            // validation
            .ignoreMigrationPatterns("*:missing")
            .load();
    try {
      return logged(flyway.migrate(), legacy);
    } catch (FlywayException first) {
      // Another process (the Flink job, tuner-service) may have run the same script at the same
      // moment: H2 commits
      // DDL at once, so Flyway's lock does not hold across processes and the loser records the
      // script as failed.
      // Repair drops failed records (it never undoes applied scripts), and the second attempt then
      // finds the
      // winner's record. A real failure fails again, and is thrown.
      LOG.warn(
          "schema migration failed once, repairing the history and trying again: {}",
          first.getMessage());
      try {
        flyway.repair();
        return logged(flyway.migrate(), legacy);
      } catch (FlywayException second) {
        second.addSuppressed(first);
        throw new SQLException(
            "schema migration (" + location + ") failed: " + second.getMessage(), second);
      }
    }
  }

  private static MigrateResult logged(MigrateResult r, int legacy) {
    if (r.migrationsExecuted > 0) {
      LOG.info(
          "schema migrated to version {} ({} scripts{})",
          r.targetSchemaVersion,
          r.migrationsExecuted,
          legacy > 0 && r.initialSchemaVersion == null ? ", baselined at version " + legacy : "");
    }
    return r;
  }

  /** The version a pre-Flyway database recorded, 0 when it has no such record. */
  static int legacyVersion(Connection c) {
    try (Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT max(version) FROM " + LEGACY_TABLE)) {
      return rs.next() ? rs.getInt(1) : 0;
    } catch (SQLException absent) {
      return 0;
    } finally {
      try {
        if (!c.getAutoCommit()) {
          c.rollback();
        }
      } catch (SQLException ignored) {
        // the caller's connection is checked by its next statement
      }
    }
  }

  /**
   * Flyway recognises ClickHouse by the {@code jdbc:clickhouse:} prefix; the driver also takes
   * {@code jdbc:ch:}.
   */
  static String flywayUrl(String url) {
    return url.regionMatches(true, 0, "jdbc:ch:", 0, 8)
        ? "jdbc:clickhouse:" + url.substring(8)
        : url;
  }
}
