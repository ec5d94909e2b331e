package io.sluice.tuner;

import io.sluice.rules.RuleEngine;
import io.sluice.tuner.policy.TuningPolicy;
import java.time.Clock;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The plain-Java parts as beans; a bad policy value or rule configuration fails start-up naming it.
 */
@Configuration(proxyBeanMethods = false)
class TunerConfiguration {
  @Bean
  TuningPolicy tuningPolicy(TunerProperties props) {
    return new TuningPolicy(props.policyConfig());
  }

  @Bean
  RuleEngine ruleEngine(TunerProperties props) {
    return RuleEngine.loadDefault(props.ruleConfig());
  }

  @Bean
  Clock clock() {
    return Clock.systemUTC();
  }
}
