package io.sluice.tuner.throttle;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The live-application registry behind the priority map: submissions seen on the submission path
 * (pending until their driver reports the application id) and applications reported by their
 * driver. Entries expire (pending after {@code submissionTtl}, applications after {@code appTtl})
 * and each map holds at most {@code maxEntries} (the oldest entry goes first). Thread-safe; pure
 * apart from the injected clock.
 */
public final class LiveApps {
  /** A submission whose application has not been reported yet. */
  public record Submission(
      String submissionId, String jobKey, String queue, int priority, boolean shim, Instant at) {}

  /** A running application as the priority map serves it. */
  public record LiveApp(
      String appId,
      String submissionId,
      String jobKey,
      String queue,
      int priority,
      boolean shim,
      Instant reportedAt) {}

  /** What happened to a report. */
  public enum Report {
    REGISTERED,
    ALREADY_REGISTERED,
    UNKNOWN_SUBMISSION,
    CONFLICT
  }

  /** The outcome of a report: the app when registered (or already known). */
  public record Reported(Report outcome, Optional<LiveApp> app) {}

  private final Clock clock;
  private final Duration submissionTtl;
  private final Duration appTtl;
  private final int maxEntries;
  private final LinkedHashMap<String, Submission> pending = new LinkedHashMap<>();
  private final LinkedHashMap<String, LiveApp> apps = new LinkedHashMap<>();
  private long evictedExpired;
  private long evictedCapacity;

  public LiveApps(Clock clock, Duration submissionTtl, Duration appTtl, int maxEntries) {
    if (maxEntries < 1) {
      throw new IllegalArgumentException("maxEntries must be >= 1, was " + maxEntries);
    }
    this.clock = clock;
    this.submissionTtl = submissionTtl;
    this.appTtl = appTtl;
    this.maxEntries = maxEntries;
  }

  /** A submission was answered; its driver may report the application later. */
  public synchronized void submitted(
      String submissionId, String jobKey, String queue, int priority, boolean shim) {
    expire();
    pending.remove(submissionId);
    pending.put(
        submissionId, new Submission(submissionId, jobKey, queue, priority, shim, clock.instant()));
    trim(pending);
  }

  /**
   * The driver of {@code submissionId} reports that it runs as {@code appId}. The same report twice
   * is ALREADY_REGISTERED (drivers may retry); a submission this service does not know (expired,
   * evicted, or answered before a restart) is UNKNOWN_SUBMISSION. An app id registers once: a
   * report of a live app id under another submission is a CONFLICT and changes nothing (no one
   * takes over another application's priority or shim flag).
   */
  public synchronized Reported report(String appId, String submissionId) {
    expire();
    LiveApp known = apps.get(appId);
    if (known != null && known.submissionId().equals(submissionId)) {
      return new Reported(Report.ALREADY_REGISTERED, Optional.of(known));
    }
    if (known != null) {
      return new Reported(Report.CONFLICT, Optional.empty());
    }
    Submission s = pending.remove(submissionId);
    if (s == null) {
      return new Reported(Report.UNKNOWN_SUBMISSION, Optional.empty());
    }
    LiveApp app =
        new LiveApp(
            appId, submissionId, s.jobKey(), s.queue(), s.priority(), s.shim(), clock.instant());
    apps.remove(appId);
    apps.put(appId, app);
    trim(apps);
    return new Reported(Report.REGISTERED, Optional.of(app));
  }

  /** The live applications, oldest report first. */
  public synchronized List<LiveApp> apps() {
    expire();
    return new ArrayList<>(apps.values());
  }

  public synchronized int pendingCount() {
    expire();
    return pending.size();
  }

  public synchronized int appCount() {
    expire();
    return apps.size();
  }

  /** Entries dropped because they expired. */
  public synchronized long evictedExpired() {
    return evictedExpired;
  }

  /** Entries dropped because a map was full. */
  public synchronized long evictedCapacity() {
    return evictedCapacity;
  }

  private void expire() {
    Instant now = clock.instant();
    evictedExpired += dropOlder(pending, now.minus(submissionTtl), Submission::at);
    evictedExpired += dropOlder(apps, now.minus(appTtl), LiveApp::reportedAt);
  }

  /** Insertion order is time order (a re-put removes first), so expired entries are at the head. */
  private static <V> int dropOlder(
      LinkedHashMap<String, V> m, Instant before, java.util.function.Function<V, Instant> at) {
    int n = 0;
    for (Iterator<Map.Entry<String, V>> it = m.entrySet().iterator(); it.hasNext(); ) {
      if (!at.apply(it.next().getValue()).isBefore(before)) {
        break;
      }
      it.remove();
      n++;
    }
    return n;
  }

  private <V> void trim(LinkedHashMap<String, V> m) {
    Iterator<String> it = m.keySet().iterator();
    while (m.size() > maxEntries && it.hasNext()) {
      it.next();
      it.remove();
      evictedCapacity++;
    }
  }
}
