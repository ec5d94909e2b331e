package io.sluice.submit.client;

import java.util.Map;
import java.util.TreeMap;

/**
 * Body of {@code POST /api/v1/submissions} (the REST contract shared with tuner-service). {@code conf} holds the
 * user's explicit Spark confs; {@code jobKey} is the explicit {@code spark.sluice.job.key} or null.
 */
public record SubmissionRequest(String cluster, String queue, String user, String appName, String jobKey,
    Map<String, String> conf) {
  public SubmissionRequest {
    conf = conf == null ? Map.of() : new TreeMap<>(conf);
  }
}
