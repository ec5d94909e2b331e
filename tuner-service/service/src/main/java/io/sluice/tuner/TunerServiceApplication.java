package io.sluice.tuner;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.autoconfigure.flyway.FlywayAutoConfiguration;
import org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration;
import org.springframework.boot.autoconfigure.jdbc.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/**
 * Sluice's tuner-service: turns each recurring job's history into Spark configuration overlays
 * behind the REST API of {@code docs/api.md}; it reports ready once its control state is loaded
 * ({@link io.sluice.tuner.startup.Readiness}). Run with {@code java -jar sluice-tuner-service-*.jar
 * --server.port=... --sluice.tuner.store-url=jdbc:h2:tcp://127.0.0.1:19093/sluice-history}.
 *
 * <p>Boot's own data source, its Flyway run and its transaction manager are off: the store URL is
 * {@code sluice.tuner.store-url}, the schema belongs to the history store ({@code
 * HistoryStores.migrate}) and the pool to {@link io.sluice.tuner.store.ControlDatabase}, which is
 * not a {@code DataSource} bean, so that a store that is down never fails start-up or the health
 * endpoint.
 */
@SpringBootApplication(
    exclude = {
      DataSourceAutoConfiguration.class,
      DataSourceTransactionManagerAutoConfiguration.class,
      FlywayAutoConfiguration.class
    })
@ConfigurationPropertiesScan
public class TunerServiceApplication {
  public static void main(String[] args) {
    SpringApplication.run(TunerServiceApplication.class, args);
  }
}
