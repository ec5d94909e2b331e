package io.sluice.tuner.throttle;

import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.HashSet;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;

/**
 * The priority map's beans ({@link ThrottleProperties} is bound by the application's properties
 * scan); a priority out of bounds fails start-up naming the property.
 */
@Configuration(proxyBeanMethods = false)
class ThrottleConfiguration {
  @Bean
  PriorityPolicy priorityPolicy(ThrottleProperties p) {
    return new PriorityPolicy(
        p.defaultPriority(), p.queues(), p.jobs(), new HashSet<>(p.shimQueues()));
  }

  @Bean
  LiveApps liveApps(ThrottleProperties p, Clock clock) {
    return new LiveApps(clock, p.submissionTtl(), p.appTtl(), p.maxApps());
  }

  @Bean
  ThrottleMetrics throttleMetrics(MeterRegistry registry, LiveApps apps) {
    return new ThrottleMetrics(registry, apps);
  }

  @Bean
  @Order(100)
  ThrottleContributor throttleContributor(
      ThrottleProperties p, PriorityPolicy policy, LiveApps apps, ThrottleMetrics metrics) {
    return new ThrottleContributor(
        p.enabled(), policy, apps, p.shimJar(), p.reporterJar(), p.reportUrl(), metrics);
  }
}
