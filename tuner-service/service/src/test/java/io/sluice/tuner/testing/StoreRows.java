package io.sluice.tuner.testing;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Every row of every table of an H2 store, as text per table (to compare a store before and after).
 */
public final class StoreRows {
  private StoreRows() {}

  public static Map<String, String> dump(String url) {
    Map<String, String> out = new TreeMap<>();
    try (Connection c = DriverManager.getConnection(url);
        Statement s = c.createStatement()) {
      List<String> tables = new ArrayList<>();
      try (ResultSet t =
          s.executeQuery(
              "SELECT TABLE_NAME FROM INFORMATION_SCHEMA.TABLES WHERE TABLE_SCHEMA = "
                  + "'PUBLIC'")) {
        while (t.next()) {
          tables.add(t.getString(1));
        }
      }
      for (String table : tables) {
        List<String> rows = new ArrayList<>();
        try (ResultSet r = s.executeQuery("SELECT * FROM \"" + table + "\"")) {
          int n = r.getMetaData().getColumnCount();
          while (r.next()) {
            StringBuilder b = new StringBuilder();
            for (int i = 1; i <= n; i++) {
              b.append(r.getString(i)).append('|');
            }
            rows.add(b.toString());
          }
        }
        rows.sort(null);
        out.put(table, String.join("\n", rows));
      }
    } catch (SQLException e) {
      throw new AssertionError("cannot read the store " + url + ": " + e, e);
    }
    return out;
  }
}
