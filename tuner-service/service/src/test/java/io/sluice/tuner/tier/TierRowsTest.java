package io.sluice.tuner.tier;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.model.Json;
import org.junit.jupiter.api.Test;

class TierRowsTest {

  @Test
  void aRefusedDecisionCountsForThePushTierItWasRefused() {
    TierDecision d = TierStoreTest.decision("job-a", "a1", 10);
    assertThat(TierRows.decisionValues(d))
        .containsExactly("job-a", 10L, Json.write(d), "CELEBORN", "etl", "REFUSED");
  }

  @Test
  void anAuditEntryIsWrittenUnderItsRuleSetVersion() {
    AuditEntry a = new AuditEntry(0, 5, "alice", "ADD", "r1", null, "{}", 7);
    assertThat(TierRows.auditValues(a)).containsExactly(7L, 5L, "alice", "ADD", "r1", null, "{}");
  }

  @Test
  void anInsertHasOnePlaceholderPerColumn() {
    assertThat(TierRows.insert("t", "a, b, c"))
        .isEqualTo("INSERT INTO t (a, b, c) VALUES (?, ?, ?)");
    assertThat(TierRows.insert("t", TierRows.DECISION_COLUMNS)).endsWith("(?, ?, ?, ?, ?, ?)");
  }
}
