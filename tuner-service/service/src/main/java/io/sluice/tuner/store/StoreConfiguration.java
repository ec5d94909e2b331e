package io.sluice.tuner.store;

import io.sluice.tuner.TunerProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The one pool to tuner-service's own tables, shared by the decision log, the tier and outcome
 * stores and the audit: sized after the store threads (one connection each) plus the background
 * work's.
 */
@Configuration(proxyBeanMethods = false)
class StoreConfiguration {
  @Bean(destroyMethod = "close")
  ControlDatabase controlDatabase(TunerProperties props) {
    return ControlDatabase.open(
        props.storeUrl(), props.storeThreads() + ControlDatabase.BACKGROUND_CONNECTIONS);
  }
}
