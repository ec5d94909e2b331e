package io.sluice.tuner.retention;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

class RetentionPropertiesTest {
  static RetentionProperties bind(Map<String, String> props) {
    return new Binder(new MapConfigurationPropertySource(props))
        .bindOrCreate("sluice.retention", RetentionProperties.class);
  }

  @Test
  void defaultsAndOverrides() {
    RetentionProperties d = bind(Map.of());
    assertThat(d.runs()).isEqualTo(Duration.ofDays(180));
    assertThat(d.decisions()).isEqualTo(Duration.ofDays(365));
    assertThat(d.gateEvents()).isEqualTo(Duration.ofDays(30));
    assertThat(d.interval()).isEqualTo(Duration.ofHours(1));
    assertThat(bind(Map.of("sluice.retention.gate-events", "7d")).gateEvents())
        .isEqualTo(Duration.ofDays(7));
  }

  @Test
  void aDurationThatIsNotPositiveFailsNamingTheProperty() {
    assertThatThrownBy(() -> bind(Map.of("sluice.retention.audit", "0s")))
        .isInstanceOf(BindException.class)
        .rootCause()
        .hasMessage("sluice.retention.audit must be positive, was PT0S");
  }
}
