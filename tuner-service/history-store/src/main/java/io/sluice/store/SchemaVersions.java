package io.sluice.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;

/** The bookkeeping of the {@code schema_version} table that both stores keep (one row per applied migration). */
final class SchemaVersions {
  private SchemaVersions() {}

  /** Fails when the store was migrated by newer code than this (more versions than {@code migrations} knows). */
  static void checkKnown(int current, List<String> migrations) throws SQLException {
    if (current > migrations.size()) {
      throw new SQLException("the store's schema version " + current + " is newer than this code knows ("
          + migrations.size() + "); upgrade Sluice");
    }
  }

  /** Records that version {@code version}, the script {@code resource}, is applied. */
  static void record(Connection c, int version, String resource) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("INSERT INTO schema_version (version, description) VALUES (?, ?)")) {
      ps.setInt(1, version);
      ps.setString(2, resource.substring(resource.lastIndexOf('/') + 1));
      ps.executeUpdate();
    }
  }
}
