package io.sluice.tuner.throttle;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * The priority map's meters: {@code sluice.throttle.submissions} (submissions recorded; source =
 * job | queue | default), {@code sluice.throttle.reports} (driver reports; outcome = registered |
 * already_registered | unknown_submission), gauges {@code sluice.throttle.apps.live} and {@code
 * sluice.throttle.submissions.pending}, {@code sluice.throttle.evictions} (reason = expired |
 * capacity).
 */
public final class ThrottleMetrics {
  private final MeterRegistry registry;

  public ThrottleMetrics(MeterRegistry registry, LiveApps apps) {
    this.registry = registry;
    Gauge.builder("sluice.throttle.apps.live", apps, LiveApps::appCount)
        .description("Applications in the priority map")
        .register(registry);
    Gauge.builder("sluice.throttle.submissions.pending", apps, LiveApps::pendingCount)
        .description("Submissions whose application has not been reported yet")
        .register(registry);
    FunctionCounter.builder("sluice.throttle.evictions", apps, LiveApps::evictedExpired)
        .tag("reason", "expired")
        .description("Registry entries dropped")
        .register(registry);
    FunctionCounter.builder("sluice.throttle.evictions", apps, LiveApps::evictedCapacity)
        .tag("reason", "capacity")
        .description("Registry entries dropped")
        .register(registry);
    for (String s : new String[] {"job", "queue", "default"}) {
      submissionCounter(s);
    }
    for (LiveApps.Report r : LiveApps.Report.values()) {
      reportCounter(r);
    }
  }

  void submission(String source) {
    submissionCounter(source).increment();
  }

  void report(LiveApps.Report outcome) {
    reportCounter(outcome).increment();
  }

  private Counter submissionCounter(String source) {
    return Counter.builder("sluice.throttle.submissions")
        .description("Submissions recorded with their priority")
        .tag("source", source)
        .register(registry);
  }

  private Counter reportCounter(LiveApps.Report outcome) {
    return Counter.builder("sluice.throttle.reports")
        .description("Application reports from drivers")
        .tag("outcome", outcome.name().toLowerCase(java.util.Locale.ROOT))
        .register(registry);
  }
}
