package io.sluice.tuner.jobs;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.stereotype.Component;

/**
 * Operator trials waiting for a job's next submission ({@code POST /api/v1/jobs/trial}). A trial is
 * handed out once: the first submission whose overlay carries it consumes it; the run that follows
 * is judged by the policy like any other trial. Kept in memory (lost on restart: the operator asks
 * again), at most {@link #MAX_PENDING}.
 */
@Component
public class OperatorTrials {
  /**
   * Pending trials at most; one more (for another job) is refused until one is consumed or
   * cancelled.
   */
  public static final int MAX_PENDING = 1_000;

  private final Map<String, Map<String, String>> pending = new ConcurrentHashMap<>();

  /**
   * Replaces the job's pending trial; refused (429) when {@link #MAX_PENDING} other jobs have one.
   */
  public synchronized void put(String jobKey, Map<String, String> trial) {
    if (!pending.containsKey(jobKey) && pending.size() >= MAX_PENDING) {
      throw new io.sluice.tuner.api.TooMany(
          "already " + MAX_PENDING + " pending operator trials: cancel one first");
    }
    pending.put(jobKey, java.util.Collections.unmodifiableMap(new TreeMap<>(trial)));
  }

  /** The job's pending trial (empty if none). */
  public Map<String, String> peek(String jobKey) {
    return pending.getOrDefault(jobKey, Map.of());
  }

  /** Removes the job's trial if it is still the one handed out; true if it was removed. */
  public boolean consume(String jobKey, Map<String, String> handedOut) {
    return !handedOut.isEmpty() && pending.remove(jobKey, handedOut);
  }

  /** Cancels the job's pending trial; the trial that was pending (empty if none). */
  public Map<String, String> cancel(String jobKey) {
    Map<String, String> t = pending.remove(jobKey);
    return t == null ? Map.of() : t;
  }
}
