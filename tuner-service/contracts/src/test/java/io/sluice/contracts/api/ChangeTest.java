package io.sluice.contracts.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ChangeTest {
  @Test
  void absentReasonAndEvidenceBecomeEmpty() {
    Change c = new Change("spark.sql.shuffle.partitions", "50", null, "R", null, null);
    assertThat(c.reason()).isEmpty();
    assertThat(c.evidence()).isEmpty();
    assertThat(c.previous()).isNull();
  }

  @Test
  void evidenceIsSortedByNameAndCannotBeChanged() {
    Map<String, Double> given = new LinkedHashMap<>();
    given.put("tasks", 4000.0);
    given.put("avgBlockBytes", 12288.0);
    Change c = new Change("k", "v", "w", "R", "why", given);
    given.put("later", 1.0);
    assertThat(c.evidence().keySet()).containsExactly("avgBlockBytes", "tasks");
    assertThatThrownBy(() -> c.evidence().put("x", 1.0))
        .isInstanceOf(UnsupportedOperationException.class);
  }
}
