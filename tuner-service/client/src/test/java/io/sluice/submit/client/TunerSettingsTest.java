package io.sluice.submit.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class TunerSettingsTest {
  @Test
  void aUrlWithCredentialsIsRefusedWithoutEchoingThem() {
    assertThatThrownBy(
            () ->
                TunerSettings.resolve(
                    Map.of(TunerSettings.URL, "http://ops:hunter2@127.0.0.1:1/"), Map.of()))
        .hasMessage(
            "spark.sluice.tuner.url must not carry credentials (user:password@), was "
                + "http://***@127.0.0.1:1/; the service's token comes from SLUICE_TUNER_TOKEN or SLUICE_TUNER_TOKEN_FILE");
    assertThat(
            TunerSettings.resolve(Map.of(TunerSettings.URL, "https://tuner:8443/"), Map.of()).url())
        .hasToString("https://tuner:8443/");
  }

  @Test
  void valuesComeFromTheConfThenTheEnvironmentAndBadOnesFailNamingTheKey() {
    TunerSettings d = TunerSettings.resolve(Map.of(), Map.of());
    assertThat(d.timeout()).isEqualTo(java.time.Duration.ofMillis(1500));
    assertThat(d.enabled()).isTrue();
    assertThat(d.breakerFailures()).isEqualTo(3);
    TunerSettings s =
        TunerSettings.resolve(
            Map.of(TunerSettings.TIMEOUT_MS, "800"),
            Map.of(
                "SLUICE_TUNER_TIMEOUT_MS",
                "900",
                "SLUICE_ENABLED",
                "0",
                "SLUICE_BREAKER_FAILURES",
                "5"));
    assertThat(s.timeout()).isEqualTo(java.time.Duration.ofMillis(800));
    assertThat(s.enabled()).isFalse();
    assertThat(s.breakerFailures()).isEqualTo(5);
    assertThatThrownBy(() -> TunerSettings.resolve(Map.of(TunerSettings.TIMEOUT_MS, "0"), Map.of()))
        .hasMessage(
            "spark.sluice.tuner.timeoutMs=0 is outside the valid range [1, 60000] (milliseconds)");
    assertThatThrownBy(() -> TunerSettings.resolve(Map.of(), Map.of("SLUICE_ENABLED", "maybe")))
        .hasMessage("spark.sluice.tuner.enabled=maybe is not true or false");
  }
}
