package io.sluice.tuner.tier;

/** The identity a rollout decision is made for: cluster, YARN queue (may be empty) and job key. */
public record JobRef(String cluster, String queue, String jobKey) {
  public JobRef {
    cluster = cluster == null ? "" : cluster.trim();
    queue = queue == null ? "" : queue.trim();
    jobKey = jobKey == null ? "" : jobKey.trim();
  }
}
