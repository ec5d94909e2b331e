package io.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class SettingTest {
  enum Mode {
    FAST,
    SAFE
  }

  @Test
  void numbersAreParsedWithinTheirRangeAndErrorsNameKeyValueAndUnit() {
    Setting<Long> ms = Setting.ofLong("a.ms", Unit.MILLIS, 100, 1, 1_000, "a duration");
    assertThat(ms.parse(" 250 ")).isEqualTo(250L);
    assertThat(ms.range()).isEqualTo("1 .. 1000");
    assertThat(ms.defaultText()).isEqualTo("100");
    assertThatThrownBy(() -> ms.parse("0"))
        .hasMessage("a.ms=0 is outside the valid range [1, 1000] (milliseconds)");
    assertThatThrownBy(() -> ms.parse("1s"))
        .hasMessage("a.ms=1s is not a whole number (milliseconds)");
    assertThatThrownBy(() -> ms.parse(null)).hasMessage("a.ms has no value");

    Setting<Double> f = Setting.ofDouble("a.f", Unit.FRACTION, 0.5, 0.01, 1.0, "a fraction");
    assertThat(f.parse("0.25")).isEqualTo(0.25);
    assertThat(f.range()).isEqualTo("0.01 .. 1");
    assertThat(f.defaultText()).isEqualTo("0.5");
    assertThatThrownBy(() -> f.parse("NaN"))
        .hasMessage("a.f=NaN is outside the valid range [0.01, 1] (fraction)");
    assertThatThrownBy(() -> f.parse("half")).hasMessage("a.f=half is not a number (fraction)");
  }

  @Test
  void enumsChoicesBooleansAndCheckedText() {
    Setting<Mode> mode = Setting.ofEnum("a.mode", Mode.class, Mode.SAFE, "a mode");
    assertThat(mode.parse("fast")).isEqualTo(Mode.FAST);
    assertThat(mode.range()).isEqualTo("FAST, SAFE");
    assertThatThrownBy(() -> mode.parse("slow")).hasMessage("a.mode=slow is not one of FAST, SAFE");

    Setting<String> sink = Setting.ofChoice("a.sink", "none", "a sink", "none", "at-least-once");
    assertThat(sink.parse("AT-LEAST-ONCE")).isEqualTo("at-least-once");
    assertThatThrownBy(() -> sink.parse("twice"))
        .hasMessage("a.sink=twice is not one of none, at-least-once");

    Setting<Boolean> on = Setting.ofBoolean("a.on", false, "a switch");
    assertThat(on.parse("TRUE")).isTrue();
    assertThat(on.defaultText()).isEqualTo("false");

    Setting<String> url =
        Setting.ofText(
            "a.url",
            "",
            "URL or empty",
            "a URL",
            raw -> {
              if (!raw.isEmpty() && !raw.startsWith("http")) {
                throw new IllegalArgumentException("not an http URL");
              }
              return raw;
            });
    assertThat(url.parse(" http://x ")).isEqualTo("http://x");
    assertThatThrownBy(() -> url.parse("ftp://x")).hasMessage("a.url=ftp://x: not an http URL");
  }

  @Test
  void aDefaultOutsideItsOwnRangeFailsAtDeclaration() {
    assertThatThrownBy(() -> Setting.ofLong("a.n", Unit.COUNT, 0, 1, 10, "n"))
        .hasMessage("a.n=0 is outside the valid range [1, 10] (count)");
  }

  @Test
  void aCatalogueRefusesAKeyDeclaredTwice() {
    Setting<Long> n = Setting.ofLong("a.n", Unit.COUNT, 1, 1, 10, "n");
    Catalogue c = Catalogue.of("a", "from a file", List.of(n));
    assertThat(c.find("a.n")).isSameAs(n);
    assertThat(c.find("a.m")).isNull();
    assertThatThrownBy(() -> Catalogue.of("a", "from a file", List.of(n, n)))
        .hasMessage("a declares a.n twice");
  }
}
