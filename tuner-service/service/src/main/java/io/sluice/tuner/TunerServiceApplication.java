package io.sluice.tuner;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/**
 * Sluice's tuner-service: turns each recurring job's history into Spark configuration overlays behind the REST API
 * of {@code docs/api.md}; it reports ready once its control state is loaded
 * ({@link io.sluice.tuner.startup.Readiness}). Run with {@code java -jar sluice-tuner-service-*.jar --server.port=...
 * --sluice.tuner.store-url=jdbc:h2:tcp://127.0.0.1:19093/sluice-history}.
 */
@SpringBootApplication
@ConfigurationPropertiesScan
public class TunerServiceApplication {
  public static void main(String[] args) {
    SpringApplication.run(TunerServiceApplication.class, args);
  }
}
