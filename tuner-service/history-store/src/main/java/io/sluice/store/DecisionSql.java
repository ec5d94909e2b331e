package io.sluice.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import io.sluice.model.Json;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * How a job's tuning decisions are read from the decision log's table ({@code tuner_decisions};
 * tuner-service owns it and writes it): one query, shared by tuner-service and the store's readers.
 */
public final class DecisionSql {
  /** The decision log's table. */
  public static final String TABLE = "tuner_decisions";

  private static final TypeReference<Map<String, Double>> EVIDENCE = new TypeReference<>() {};

  private DecisionSql() {}

  /**
   * The query of a job's decisions from {@code source} (the table, or the table with {@code
   * FINAL}), oldest run first; one parameter, the job key. Rows map with {@link #row}.
   */
  public static String select(String source) {
    return "SELECT run_key, run_start, kind, conf_key, direction, conf_value, reason, evidence FROM "
        + source
        + " WHERE job_key = ? ORDER BY run_start, run_key, kind, conf_key";
  }

  /** The decision at the current row of a {@link #select} result for {@code jobKey}. */
  public static TuningDecision row(ResultSet rs, String jobKey) throws SQLException {
    return new TuningDecision(
        rs.getString(1),
        rs.getLong(2),
        rs.getString(3),
        rs.getString(4),
        rs.getString(5),
        rs.getString(6),
        rs.getString(7),
        evidence(rs.getString(8), jobKey, rs.getString(1)));
  }

  /**
   * A job's decisions from {@code source} (the table, or the table with {@code FINAL}), oldest run
   * first.
   */
  public static List<TuningDecision> read(Connection c, String source, String jobKey)
      throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(select(source))) {
      ps.setString(1, jobKey);
      List<TuningDecision> out = new ArrayList<>();
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.add(row(rs, jobKey));
        }
      }
      return out;
    }
  }

  private static Map<String, Double> evidence(String json, String jobKey, String runKey)
      throws SQLException {
    try {
      return Json.mapper().readValue(json, EVIDENCE);
    } catch (JsonProcessingException e) {
      throw new SQLException(
          "the evidence of a decision about run "
              + runKey
              + " of job "
              + jobKey
              + " is not a JSON object of numbers: "
              + e.getOriginalMessage(),
          e);
    }
  }
}
