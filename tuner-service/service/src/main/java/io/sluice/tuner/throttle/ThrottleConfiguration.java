package io.sluice.tuner.throttle;

import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.HashSet;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;

/**
 * The priority map's beans ({@link ThrottleProperties} is bound by the application's properties scan); a priority
 * out of bounds fails start-up naming the property.
 */
@Configuration(proxyBeanMethods = false)
class ThrottleConfiguration {
  @Bean
  PriorityPolicy priorityPolicy(ThrottleProperties p) {
    p.check();
    return new PriorityPolicy(p.getDefaultPriority(), p.getQueues(), p.getJobs(), new HashSet<>(p.getShimQueues()));
  }

  @Bean
  LiveApps liveApps(ThrottleProperties p, Clock clock) {
    return new LiveApps(clock, p.getSubmissionTtl(), p.getAppTtl(), p.getMaxApps());
  }

  @Bean
  ThrottleMetrics throttleMetrics(MeterRegistry registry, LiveApps apps) {
    return new ThrottleMetrics(registry, apps);
  }

  @Bean
  @Order(100)
  ThrottleContributor throttleContributor(ThrottleProperties p, PriorityPolicy policy, LiveApps apps,
      ThrottleMetrics metrics) {
    return new ThrottleContributor(p.isEnabled(), policy, apps, p.getShimJar(), p.getReporterJar(), p.getReportUrl(),
        metrics);
  }
}
