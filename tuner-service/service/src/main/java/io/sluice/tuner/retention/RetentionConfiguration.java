package io.sluice.tuner.retention;

import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.tuner.TunerProperties;
import io.sluice.tuner.store.ControlDatabase;
import java.time.Clock;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The retention pruner over the history store's database ({@link RetentionProperties} is bound by
 * the scan).
 */
@Configuration(proxyBeanMethods = false)
class RetentionConfiguration {
  @Bean(destroyMethod = "close")
  RetentionPruner retentionPruner(
      TunerProperties tuner,
      ControlDatabase control,
      RetentionProperties retention,
      Clock clock,
      MeterRegistry meters) {
    return new RetentionPruner(tuner.storeUrl(), control, retention, clock, meters).start();
  }
}
