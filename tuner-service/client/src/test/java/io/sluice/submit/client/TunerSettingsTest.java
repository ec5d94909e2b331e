package io.sluice.submit.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class TunerSettingsTest {
  @Test
  void aUrlWithCredentialsIsRefusedWithoutEchoingThem() {
    assertThatThrownBy(() -> TunerSettings.resolve(Map.of(TunerSettings.URL, "http://ops:hunter2@127.0.0.1:1/"),
        Map.of())).hasMessage("spark.sluice.tuner.url must not carry credentials (user:password@), was "
            + "http://***@127.0.0.1:1/; the service's token comes from SLUICE_TUNER_TOKEN or SLUICE_TUNER_TOKEN_FILE");
    assertThat(TunerSettings.resolve(Map.of(TunerSettings.URL, "https://tuner:8443/"), Map.of()).url())
        .hasToString("https://tuner:8443/");
  }
}
