package io.sluice.tuner.throttle;

import java.util.Map;
import java.util.Set;

/**
 * Which priority a submission gets and whether it runs the client shim. Pure: a job override wins
 * over its queue's priority, which wins over the default; the shim is for opted-in queues only.
 */
public final class PriorityPolicy {
  /**
   * A submission's priority and where it came from ({@code job}, {@code queue} or {@code default}).
   */
  public record Resolved(int priority, String source, boolean shim) {}

  private final int defaultPriority;
  private final Map<String, Integer> queues;
  private final Map<String, Integer> jobs;
  private final Set<String> shimQueues;

  public PriorityPolicy(
      int defaultPriority,
      Map<String, Integer> queues,
      Map<String, Integer> jobs,
      Set<String> shimQueues) {
    this.defaultPriority = defaultPriority;
    this.queues = Map.copyOf(queues);
    this.jobs = Map.copyOf(jobs);
    this.shimQueues = Set.copyOf(shimQueues);
  }

  public int defaultPriority() {
    return defaultPriority;
  }

  /** The submission's priority and shim flag; {@code queue} may be null. */
  public Resolved resolve(String jobKey, String queue) {
    boolean shim = queue != null && shimQueues.contains(queue);
    Integer job = jobKey == null ? null : jobs.get(jobKey);
    if (job != null) {
      return new Resolved(job, "job", shim);
    }
    Integer q = queue == null ? null : queues.get(queue);
    if (q != null) {
      return new Resolved(q, "queue", shim);
    }
    return new Resolved(defaultPriority, "default", shim);
  }
}
