package io.sluice.listener;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class SluiceListenerConfTest {

  @Test
  void defaultsWhenOnlyBootstrapIsSet() {
    SluiceListenerConf c =
        SluiceListenerConf.from(Map.of(SluiceListenerConf.BOOTSTRAP, " 127.0.0.1:9092 "));
    assertThat(c.active()).isTrue();
    assertThat(c.bootstrap()).isEqualTo("127.0.0.1:9092");
    assertThat(c.topic()).isEqualTo("sluice.spark-events");
    assertThat(c.cluster()).isEqualTo("default");
    assertThat(c.queueSize()).isEqualTo(SluiceListenerConf.DEFAULT_QUEUE_SIZE);
    assertThat(c.logBlockUpdates()).isFalse();
    assertThat(c.logMetricsUpdates()).isFalse();
    assertThat(c.deliveryTimeoutMs())
        .isGreaterThanOrEqualTo(c.requestTimeoutMs() + SluiceKafkaSender.LINGER_MS);
  }

  @Test
  void inactiveWithoutBootstrapOrWhenDisabled() {
    assertThat(SluiceListenerConf.from(Map.of()).active()).isFalse();
    assertThat(
            SluiceListenerConf.from(
                    Map.of(
                        SluiceListenerConf.BOOTSTRAP, "h:1", SluiceListenerConf.ENABLED, "false"))
                .active())
        .isFalse();
  }

  @Test
  void overridesAndBadNumbersFallBack() {
    SluiceListenerConf c =
        SluiceListenerConf.from(
            Map.of(
                SluiceListenerConf.BOOTSTRAP,
                "h:1",
                SluiceListenerConf.CLUSTER,
                "prod-eu",
                SluiceListenerConf.QUEUE_SIZE,
                "oops",
                SluiceListenerConf.CLOSE_TIMEOUT_MS,
                "250",
                SluiceListenerConf.REQUEST_TIMEOUT_MS,
                "30000",
                SluiceListenerConf.DELIVERY_TIMEOUT_MS,
                "1000",
                "spark.sluice.kafka.producer.security.protocol",
                "SSL"));
    assertThat(c.cluster()).isEqualTo("prod-eu");
    assertThat(c.queueSize()).isEqualTo(SluiceListenerConf.DEFAULT_QUEUE_SIZE);
    assertThat(c.closeTimeoutMs()).isEqualTo(250);
    assertThat(c.deliveryTimeoutMs()).isEqualTo(30000 + SluiceKafkaSender.LINGER_MS);
    assertThat(c.producerOverrides()).containsEntry("security.protocol", "SSL");
  }

  @Test
  void secretsInTheSparkConfAreDroppedAndNamed() {
    SluiceListenerConf c =
        SluiceListenerConf.from(
            Map.of(
                SluiceListenerConf.BOOTSTRAP,
                "h:1",
                "spark.sluice.kafka.producer.security.protocol",
                "SASL_SSL",
                "spark.sluice.kafka.producer.sasl.jaas.config",
                "x required password=\"p\";",
                "spark.sluice.kafka.producer.ssl.truststore.password",
                "tp"));
    assertThat(c.producerOverrides()).containsOnlyKeys("security.protocol");
    assertThat(c.droppedSecrets())
        .containsExactlyInAnyOrder(
            "spark.sluice.kafka.producer.sasl.jaas.config",
            "spark.sluice.kafka.producer.ssl.truststore.password");
  }
}
