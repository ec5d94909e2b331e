package io.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class SettingValuesTest {
  static final Setting<Long> PORT = Setting.ofLong("x.port", Unit.PORT, 7339, -1, 65_535, "a port");
  static final Setting<Boolean> ON = Setting.ofBoolean("x.on", true, "a switch");
  static final Setting<String> NAME = Setting.ofText("x.name", "", "a name");
  static final List<Setting<?>> ALL = List.of(PORT, ON, NAME);

  @Test
  void defaultsOverriddenValuesTrimmedOtherPrefixesIgnored() {
    SettingValues s =
        SettingValues.parse(
            "x.", "test", ALL, Map.of("x.port", " 0 ", "y.port", "1", "x.name", "node-1"));
    assertThat(s.get(PORT)).isZero();
    assertThat(s.get(ON)).isTrue();
    assertThat(s.get(NAME)).isEqualTo("node-1");
    assertThat(s.asMap())
        .containsExactly(
            Map.entry("x.port", "0"), Map.entry("x.on", "true"), Map.entry("x.name", "node-1"));
  }

  @Test
  void unknownKeysAndBadValuesFailAtOnceNamingTheKey() {
    assertThatThrownBy(() -> SettingValues.parse("x.", "test", ALL, Map.of("x.prot", "1")))
        .hasMessage("unknown test key x.prot (known: x.port, x.on, x.name)");
    assertThatThrownBy(() -> SettingValues.parse("x.", "test", ALL, Map.of("x.port", "70000")))
        .hasMessage("x.port=70000 is outside the valid range [-1, 65535] (port)");
    assertThatThrownBy(() -> SettingValues.parse("x.", "test", ALL, Map.of("x.on", "yes")))
        .hasMessage("x.on=yes is not true or false");
    assertThatThrownBy(() -> SettingValues.parse("x.", "test", ALL, Map.of("x.port", "20s")))
        .hasMessage("x.port=20s is not a whole number (port)");
  }

  @Test
  void aSettingThisComponentDoesNotDeclareIsRefused() {
    SettingValues s = SettingValues.parse("x.", "test", List.of(PORT), Map.of());
    assertThatThrownBy(() -> s.get(ON)).hasMessage("x.on is not a declared setting here");
  }

  @Test
  void sparkPrefixedKeysAreCollectedWithoutSparkAndOwnKeysCanBeRemoved() {
    Map<String, String> m =
        SettingValues.putSparkPrefixed(
            "x.",
            Map.of("spark.x.port", "1", "x.port", "2", "spark.y", "3").entrySet(),
            new TreeMap<>());
    assertThat(m).containsExactly(Map.entry("x.port", "1"));
    assertThat(SettingValues.without("x.on", Map.of("x.on", "true", "x.port", "1")))
        .containsExactly(Map.entry("x.port", "1"));
  }
}
