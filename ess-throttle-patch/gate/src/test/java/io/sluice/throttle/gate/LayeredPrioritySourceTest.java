package io.sluice.throttle.gate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.Map;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class LayeredPrioritySourceTest {
  private static final AppInfo TUNER_A = new AppInfo("a", 4, "etl", true);
  private static final AppInfo YARN_A = new AppInfo("a", 1, "etl", false);
  private static final AppInfo YARN_B = new AppInfo("b", 3, "adhoc", false);

  private static PrioritySource of(Map<String, AppInfo> apps, int defaultPriority) {
    return new PrioritySource() {
      @Override
      public Map<String, AppInfo> fetch() {
        return apps;
      }

      @Override
      public OptionalInt defaultPriority() {
        return OptionalInt.of(defaultPriority);
      }
    };
  }

  private static PrioritySource down(String why) {
    return () -> {
      throw new IOException(why);
    };
  }

  @Test
  void primaryWinsForAppsItKnowsFallbackFillsTheRest() throws Exception {
    LayeredPrioritySource s =
        new LayeredPrioritySource(
            of(Map.of("a", TUNER_A), 3), of(Map.of("a", YARN_A, "b", YARN_B), 0));
    assertThat(s.fetch()).containsOnly(Map.entry("a", TUNER_A), Map.entry("b", YARN_B));
    assertThat(s.defaultPriority()).hasValue(3);
  }

  @Test
  void oneSourceDownLeavesTheOther() throws Exception {
    assertThat(new LayeredPrioritySource(down("tuner"), of(Map.of("b", YARN_B), 0)).fetch())
        .containsOnly(Map.entry("b", YARN_B));
    assertThat(new LayeredPrioritySource(of(Map.of("a", TUNER_A), 3), down("rm")).fetch())
        .containsOnly(Map.entry("a", TUNER_A));
  }

  @Test
  void bothDownFailsWithBothCauses() {
    assertThatThrownBy(() -> new LayeredPrioritySource(down("tuner"), down("rm")).fetch())
        .hasMessage("tuner")
        .satisfies(
            e ->
                assertThat(e.getSuppressed())
                    .extracting(Throwable::getMessage)
                    .containsExactly("rm"));
  }
}
