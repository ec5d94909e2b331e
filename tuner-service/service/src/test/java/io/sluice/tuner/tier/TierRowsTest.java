package io.sluice.tuner.tier;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TierRowsTest {

  @Test
  void anAuditEntryIsWrittenUnderItsRuleSetVersion() {
    AuditEntry a = new AuditEntry(0, 5, "alice", "ADD", "r1", null, "{}", 7);
    assertThat(TierRows.auditValues(a)).containsExactly(7L, 5L, "alice", "ADD", "r1", null, "{}");
  }

  @Test
  void anInsertHasOnePlaceholderPerColumn() {
    assertThat(TierRows.insert("t", "a, b, c"))
        .isEqualTo("INSERT INTO t (a, b, c) VALUES (?, ?, ?)");
    assertThat(TierRows.insert("t", TierRows.AUDIT_COLUMNS)).endsWith("(?, ?, ?, ?, ?, ?, ?)");
  }
}
