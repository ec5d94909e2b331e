package io.sluice.tuner.throttle.events;

import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.tuner.store.StoreGateway;
import org.springframework.boot.autoconfigure.condition.ConditionalOnExpression;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Starts the gate event consumer when {@code sluice.throttle.events.bootstrap} is set. */
@Configuration(proxyBeanMethods = false)
class GateEventConfiguration {
  @Bean
  @ConditionalOnExpression("!'${sluice.throttle.events.bootstrap:}'.isBlank()")
  GateEventConsumer gateEventConsumer(
      GateEventProperties props, StoreGateway gateway, MeterRegistry meters) {
    return new GateEventConsumer(props, gateway, meters);
  }
}
