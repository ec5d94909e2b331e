package io.sluice.throttle.settings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.throttle.settings.DeclaredSettings.Setting;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DeclaredSettingsTest {
  static final Setting PORT = new Setting("x.port", "7339", "a port");
  static final Setting ON = new Setting("x.on", "true", "a switch");
  static final Setting NAME = new Setting("x.name", "", "a name");
  static final List<Setting> ALL = List.of(PORT, ON, NAME);

  @Test
  void defaultsOverriddenValuesTrimmedOtherPrefixesIgnored() {
    DeclaredSettings s = DeclaredSettings.parse("x.", "test", ALL,
        Map.of("x.port", " 0 ", "y.port", "1", "x.name", "node-1"));
    assertThat(s.intValue(PORT, -1, 65_535)).isZero();
    assertThat(s.boolValue(ON)).isTrue();
    assertThat(s.get(NAME)).isEqualTo("node-1");
  }

  @Test
  void unknownKeysAndBadValuesFailNamingTheKey() {
    assertThatThrownBy(() -> DeclaredSettings.parse("x.", "test", ALL, Map.of("x.prot", "1")))
        .hasMessage("unknown test key x.prot (known: x.port, x.on, x.name)");
    DeclaredSettings s = DeclaredSettings.parse("x.", "test", ALL, Map.of("x.port", "70000", "x.on", "yes"));
    assertThatThrownBy(() -> s.intValue(PORT, -1, 65_535))
        .hasMessage("x.port=70000 is not valid: outside [-1, 65535] (integer)");
    assertThatThrownBy(() -> s.boolValue(ON)).hasMessage("x.on=yes is not valid: expected true or false");
    DeclaredSettings t = DeclaredSettings.parse("x.", "test", ALL, Map.of("x.port", "20s"));
    assertThatThrownBy(() -> t.longValue(PORT, 1, 10, "milliseconds"))
        .hasMessage("x.port=20s is not a whole number (milliseconds)");
  }

  @Test
  void sparkPrefixedKeysAreCollectedWithoutSparkAndOwnKeysCanBeRemoved() {
    Map<String, String> m = DeclaredSettings.putSparkPrefixed("x.",
        Map.of("spark.x.port", "1", "x.port", "2", "spark.y", "3").entrySet(), new java.util.TreeMap<>());
    assertThat(m).containsExactly(Map.entry("x.port", "1"));
    assertThat(DeclaredSettings.without("x.on", Map.of("x.on", "true", "x.port", "1")))
        .containsExactly(Map.entry("x.port", "1"));
  }
}
