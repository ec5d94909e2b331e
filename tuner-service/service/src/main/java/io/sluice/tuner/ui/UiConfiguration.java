package io.sluice.tuner.ui;

import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The UI back end's defaults that a security layer may replace. */
@Configuration(proxyBeanMethods = false)
class UiConfiguration {
  /** Without a security layer's rule nobody reads values beyond the tunable keys. */
  @Bean
  @ConditionalOnMissingBean
  ConfAccess confAccess() {
    return ConfAccess.TUNABLE_KEYS_ONLY;
  }
}
