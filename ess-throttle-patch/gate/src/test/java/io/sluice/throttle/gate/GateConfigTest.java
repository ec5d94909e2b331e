package io.sluice.throttle.gate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class GateConfigTest {
  @Test
  void defaults() {
    GateConfig c = GateConfig.defaults();
    assertThat(c.mode()).isEqualTo(GateMode.ENFORCE);
    assertThat(c.get(GateConfig.ABNORMAL_P99_MS)).isEqualTo(10_000L);
    assertThat(c.get(GateConfig.NORMAL_P99_MS)).isLessThan(c.get(GateConfig.ABNORMAL_P99_MS));
    assertThat(c.get(GateConfig.HOLD_MAX_MS))
        .as("well inside spark.network.timeout=120s")
        .isEqualTo(20_000L);
    assertThat(c.defaultPriority()).isEqualTo(2);
    assertThat(c.get(GateConfig.TEST_IO_DELAY_MS)).isZero();
    assertThat(c.asMap())
        .hasSize(GateConfig.KNOBS.size())
        .containsEntry("sluice.throttle.budget.fraction", "0.5");
  }

  @Test
  void everyKnobIsUnderThePrefixOnceAndDocumented() {
    Set<String> keys = new HashSet<>();
    for (Knob<?> k : GateConfig.KNOBS) {
      assertThat(k.key()).startsWith(GateConfig.PREFIX);
      assertThat(keys.add(k.key())).as(k.key()).isTrue();
      assertThat(k.description()).as(k.key()).isNotBlank();
      assertThat(k.parse(k.defaultText())).as(k.key()).isEqualTo(k.defaultValue());
    }
  }

  @Test
  void fromMapOverridesAndIgnoresForeignKeys() {
    GateConfig c =
        GateConfig.fromMap(
            Map.of(
                "sluice.throttle.mode", "monitor_only",
                "sluice.throttle.hold.maxMs", " 15000 ",
                "sluice.throttle.budget.fraction", "0.25",
                "sluice.throttle.priority.weights", "0:1, 5:10",
                "spark.shuffle.service.port", "7337"));
    assertThat(c.mode()).isEqualTo(GateMode.MONITOR_ONLY);
    assertThat(c.get(GateConfig.HOLD_MAX_MS)).isEqualTo(15_000L);
    assertThat(c.nanos(GateConfig.HOLD_MAX_MS)).isEqualTo(15_000_000_000L);
    assertThat(c.get(GateConfig.BUDGET_FRACTION)).isEqualTo(0.25);
    assertThat(c)
        .isEqualTo(
            GateConfig.defaults()
                .with(GateConfig.MODE, GateMode.MONITOR_ONLY)
                .with(GateConfig.HOLD_MAX_MS, 15_000L)
                .with(GateConfig.BUDGET_FRACTION, 0.25)
                .with(GateConfig.PRIORITY_WEIGHTS, "0:1, 5:10"));
  }

  @Test
  void weightsOfUnlistedPrioritiesComeFromTheNearestListedOne() {
    GateConfig c = GateConfig.defaults().with(GateConfig.PRIORITY_WEIGHTS, "1:1,3:4,10:20");
    assertThat(c.weight(1)).isEqualTo(1.0);
    assertThat(c.weight(3)).isEqualTo(4.0);
    assertThat(c.weight(-5)).isEqualTo(1.0);
    assertThat(c.weight(2)).as("tie goes to the lower").isEqualTo(1.0);
    assertThat(c.weight(5)).isEqualTo(4.0);
    assertThat(c.weight(7)).isEqualTo(20.0);
    assertThat(c.weight(99)).isEqualTo(20.0);
  }

  @Test
  void badValuesFailNamingTheKey() {
    assertThatThrownBy(() -> GateConfig.fromMap(Map.of("sluice.throttle.hold.maxMS", "1")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unknown gate configuration key sluice.throttle.hold.maxMS")
        .hasMessageContaining("sluice.throttle.hold.maxMs");
    assertThatThrownBy(() -> GateConfig.fromMap(Map.of("sluice.throttle.hold.maxMs", "20s")))
        .hasMessage("sluice.throttle.hold.maxMs=20s is not a whole number (milliseconds)");
    assertThatThrownBy(() -> GateConfig.fromMap(Map.of("sluice.throttle.hold.maxMs", "130000")))
        .hasMessage(
            "sluice.throttle.hold.maxMs=130000 is outside the valid range [1, 100000] (milliseconds)");
    assertThatThrownBy(() -> GateConfig.fromMap(Map.of("sluice.throttle.budget.fraction", "1.5")))
        .hasMessage(
            "sluice.throttle.budget.fraction=1.5 is outside the valid range [0.01, 1] (fraction)");
    assertThatThrownBy(() -> GateConfig.fromMap(Map.of("sluice.throttle.mode", "off")))
        .hasMessage("sluice.throttle.mode=off is not one of ENFORCE, MONITOR_ONLY");
    assertThatThrownBy(
            () -> GateConfig.fromMap(Map.of("sluice.throttle.priority.weights", "1:1,2:0")))
        .hasMessage(
            "sluice.throttle.priority.weights=1:1,2:0: weight of priority 2 must be positive, was 0.0");
    assertThatThrownBy(() -> GateConfig.fromMap(Map.of("sluice.throttle.priority.weights", "high")))
        .hasMessage("sluice.throttle.priority.weights=high: 'high' is not priority:weight");
    assertThatThrownBy(
            () -> GateConfig.fromMap(Map.of("sluice.throttle.priority.url", "tuner:8080")))
        .hasMessage("sluice.throttle.priority.url=tuner:8080: not an http(s) URL with a host");
    assertThat(
            GateConfig.fromMap(Map.of("sluice.throttle.priority.url", "http://127.0.0.1:8080"))
                .get(GateConfig.PRIORITY_URL))
        .isEqualTo("http://127.0.0.1:8080");
    assertThatThrownBy(() -> GateConfig.fromMap(Map.of("sluice.throttle.normal.p99Ms", "10000")))
        .hasMessage(
            "sluice.throttle.normal.p99Ms=10000 must be lower than sluice.throttle.abnormal.p99Ms=10000 "
                + "(hysteresis)");
    assertThatThrownBy(() -> GateConfig.fromMap(Map.of("sluice.throttle.sleep.minMs", "130000")))
        .hasMessageStartingWith(
            "sluice.throttle.sleep.minMs=130000 must not exceed sluice.throttle.sleep.maxMs");
    assertThatThrownBy(
            () ->
                GateConfig.fromMap(
                    Map.of(
                        "sluice.throttle.tick.ms", "10000", "sluice.throttle.hold.maxMs", "5000")))
        .hasMessageStartingWith(
            "sluice.throttle.hold.maxMs=5000 must be longer than sluice.throttle.tick.ms");
  }
}
