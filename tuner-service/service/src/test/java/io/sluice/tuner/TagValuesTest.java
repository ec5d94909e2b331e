package io.sluice.tuner;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import org.junit.jupiter.api.Test;

class TagValuesTest {
  @Test
  void aConfiguredSetKeepsItsValuesAndTurnsOthersIntoOther() {
    TagValues t = new TagValues(Set.of("root.etl", "root.adhoc"), 100);
    assertThat(t.of("root.etl")).isEqualTo("root.etl");
    assertThat(t.of("root.evil-" + "x".repeat(50))).isEqualTo("other");
  }

  @Test
  void withoutASetTheFirstMaxDistinctValuesAreKept() {
    TagValues t = new TagValues(Set.of(), 2);
    assertThat(t.of("a")).isEqualTo("a");
    assertThat(t.of("b")).isEqualTo("b");
    assertThat(t.of("c")).isEqualTo("other");
    assertThat(t.of("a")).isEqualTo("a");
    assertThat(t.of(null)).isEmpty();
  }
}
