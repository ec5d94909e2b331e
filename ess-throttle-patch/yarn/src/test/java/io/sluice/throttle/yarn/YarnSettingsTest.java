package io.sluice.throttle.yarn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.throttle.gate.GateConfig;
import io.sluice.throttle.gate.GateMode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class YarnSettingsTest {
  private static Map<String, String> yarnSite(String... kv) {
    Map<String, String> m = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put(kv[i], kv[i + 1]);
    }
    return m;
  }

  @Test
  void collectsOnlySparkSluiceThrottleKeysWithoutTheSparkPrefix() {
    Map<String, String> props =
        YarnSettings.collect(
            yarnSite(
                    "spark.sluice.throttle.mode", "MONITOR_ONLY",
                    "spark.sluice.throttle.ess.http.port", "0",
                    "spark.sluice.throttle.yarn.selfCheck.timeoutMs", "2000",
                    "spark.shuffle.service.port", "7337",
                    "yarn.nodemanager.aux-services", "spark_shuffle",
                    "sluice.throttle.mode", "ENFORCE")
                .entrySet());
    assertThat(props)
        .containsExactly(
            Map.entry("sluice.throttle.mode", "MONITOR_ONLY"),
            Map.entry("sluice.throttle.ess.http.port", "0"),
            Map.entry("sluice.throttle.yarn.selfCheck.timeoutMs", "2000"));
  }

  @Test
  void gateAndEssGetEverythingButTheYarnKeys() {
    Map<String, String> props =
        YarnSettings.collect(
            yarnSite(
                    "spark.sluice.throttle.mode", "MONITOR_ONLY",
                    "spark.sluice.throttle.yarn.selfCheck.timeoutMs", "2000")
                .entrySet());
    Map<String, String> rest = YarnSettings.withoutYarnKeys(props);
    assertThat(rest).containsOnlyKeys("sluice.throttle.mode");
    assertThat(GateConfig.fromMap(rest).mode()).isEqualTo(GateMode.MONITOR_ONLY);
  }

  @Test
  void defaultsAndParsedValues() {
    assertThat(YarnSettings.fromMap(Map.of()).selfCheckTimeoutMillis()).isEqualTo(5000);
    assertThat(
            YarnSettings.fromMap(Map.of("sluice.throttle.yarn.selfCheck.timeoutMs", " 250 "))
                .selfCheckTimeoutMillis())
        .isEqualTo(250);
    assertThat(YarnSettings.SETTINGS)
        .extracting(io.sluice.config.Setting::key)
        .allMatch(k -> k.startsWith(YarnSettings.PREFIX));
  }

  @Test
  void unknownOrBadKeysFailNamingTheKey() {
    assertThatThrownBy(
            () -> YarnSettings.fromMap(Map.of("sluice.throttle.yarn.selfcheck.timeoutMs", "1")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("sluice.throttle.yarn.selfcheck.timeoutMs")
        .hasMessageContaining("sluice.throttle.yarn.selfCheck.timeoutMs");
    for (String bad : List.of("abc", "0", "600001")) {
      assertThatThrownBy(
              () -> YarnSettings.fromMap(Map.of("sluice.throttle.yarn.selfCheck.timeoutMs", bad)))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageStartingWith("sluice.throttle.yarn.selfCheck.timeoutMs=" + bad);
    }
  }

  @Test
  void rmPrioritiesUrlDefaultsToTheResourceManagersWebAddressAndCanBeTurnedOff() {
    assertThat(YarnSettings.fromMap(Map.of()).rmPrioritiesUrl("rm.example:8088"))
        .isEqualTo("http://rm.example:8088");
    assertThat(YarnSettings.fromMap(Map.of()).rmPrioritiesUrl(null)).isNull();
    assertThat(
            YarnSettings.fromMap(
                    Map.of("sluice.throttle.yarn.rmPriorities.url", "https://rm-ha.example:8090"))
                .rmPrioritiesUrl("rm.example:8088"))
        .isEqualTo("https://rm-ha.example:8090");
    assertThat(
            YarnSettings.fromMap(Map.of("sluice.throttle.yarn.rmPriorities.url", "off"))
                .rmPrioritiesUrl("rm.example:8088"))
        .isNull();
  }
}
