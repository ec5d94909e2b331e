package io.sluice.tuner.jobs;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.stereotype.Component;

/**
 * Operator trials waiting for a job's next submission ({@code POST /api/v1/jobs/trial}). A trial is handed out once:
 * the first submission whose overlay carries it consumes it; the run that follows is judged by the policy like any
 * other trial. Kept in memory (lost on restart: the operator asks again).
 */
@Component
public class OperatorTrials {
  private final Map<String, Map<String, String>> pending = new ConcurrentHashMap<>();

  /** Replaces the job's pending trial. */
  public void put(String jobKey, Map<String, String> trial) {
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
