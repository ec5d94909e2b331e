package io.sluice.tuner.tier;

import java.util.Objects;

/**
 * Which jobs a rollout rule or deny entry covers: each of cluster, queue and job key is either a
 * value (exact, case-sensitive match) or null for "any". Specificity orders matching rules: a rule
 * naming the job key beats any rule that does not; among those equal on the job key, one naming the
 * queue beats one that does not; then one naming the cluster. So the precedence is job key &gt;
 * queue &gt; cluster &gt; catch-all.
 */
public record Scope(String cluster, String queue, String jobKey) {
  public Scope {
    cluster = blankToNull(cluster);
    queue = blankToNull(queue);
    jobKey = blankToNull(jobKey);
  }

  public static Scope any() {
    return new Scope(null, null, null);
  }

  public boolean matches(JobRef job) {
    return (cluster == null || cluster.equals(job.cluster()))
        && (queue == null || queue.equals(job.queue()))
        && (jobKey == null || jobKey.equals(job.jobKey()));
  }

  /**
   * 4 for a named job key, plus 2 for a named queue, plus 1 for a named cluster: higher is more
   * specific.
   */
  public int specificity() {
    return (jobKey != null ? 4 : 0) + (queue != null ? 2 : 0) + (cluster != null ? 1 : 0);
  }

  /** e.g. {@code cluster=prod queue=* job=*}. */
  public String describe() {
    return "cluster=" + star(cluster) + " queue=" + star(queue) + " job=" + star(jobKey);
  }

  boolean sameAs(Scope o) {
    return Objects.equals(cluster, o.cluster)
        && Objects.equals(queue, o.queue)
        && Objects.equals(jobKey, o.jobKey);
  }

  private static String star(String s) {
    return s == null ? "*" : s;
  }

  private static String blankToNull(String s) {
    return s == null || s.isBlank() || s.trim().equals("*") ? null : s.trim();
  }
}
