package io.sluice.tuner.ui;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConfDiffTest {
  @Test
  void listsExactlyTheKeysWhoseValuesDifferSortedByKey() {
    Map<String, String> a = Map.of("k.same", "1", "k.changed", "a", "k.onlyA", "x", "k.z", "same");
    Map<String, String> b =
        Map.of("k.same", "1", "k.changed", "b", "k.onlyB", "y", "k.z", "same", "k.a", "first");
    ConfDiff d = ConfDiff.of(a, b, (k, v) -> v, (k, v) -> v);
    assertThat(d.changed()).containsExactly(new ConfDiff.Changed("k.changed", "a", "b"));
    assertThat(d.onlyA()).containsExactly(new ConfDiff.Entry("k.onlyA", "x"));
    assertThat(d.onlyB())
        .containsExactly(new ConfDiff.Entry("k.a", "first"), new ConfDiff.Entry("k.onlyB", "y"));
  }

  @Test
  void comparesRealValuesButListsTheShownOnes() {
    ConfDiff d =
        ConfDiff.of(Map.of("secret.k", "1"), Map.of("secret.k", "2"), (k, v) -> "*", (k, v) -> "#");
    assertThat(d.changed()).containsExactly(new ConfDiff.Changed("secret.k", "*", "#"));
    assertThat(
            ConfDiff.of(Map.of("k", "1"), Map.of("k", "1"), (k, v) -> "*", (k, v) -> "#").changed())
        .isEmpty();
    assertThat(ConfDiff.of(Map.of(), Map.of(), (k, v) -> v, (k, v) -> v))
        .isEqualTo(new ConfDiff(List.of(), List.of(), List.of()));
  }
}
