package io.sluice.tuner.audit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** What every {@link AuditLog} does, run against H2 and ClickHouse. */
abstract class AuditLogContract {
  /** A log over an empty database. */
  protected abstract AuditLog freshLog();

  @Test
  void recordsComeBackNewestFirstFilteredAndPaged() {
    try (AuditLog log = freshLog()) {
      log.append(
          new AuditRecord(
              "a1",
              1_000,
              "alice",
              "job.freeze",
              "etl/nightly",
              "{\"frozen\":false}",
              "{\"frozen\":true}"));
      log.append(
          new AuditRecord("a2", 2_000, "bob", "tier.rule.put", "r1", null, "{\"percent\":10.0}"));
      log.append(
          new AuditRecord(
              "a3",
              3_000,
              "alice",
              "job.unfreeze",
              "etl/nightly",
              "{\"frozen\":true}",
              "{\"frozen\":false}"));

      assertThat(log.find(new AuditQuery(null, null, null, 0, 10)))
          .extracting(AuditRecord::id)
          .containsExactly("a3", "a2", "a1");
      assertThat(log.find(new AuditQuery("alice", null, "etl/nightly", 0, 10)))
          .extracting(AuditRecord::id)
          .containsExactly("a3", "a1");
      assertThat(log.find(new AuditQuery(null, "tier.rule.put", null, 0, 10)))
          .singleElement()
          .isEqualTo(
              new AuditRecord(
                  "a2", 2_000, "bob", "tier.rule.put", "r1", null, "{\"percent\":10.0}"));
      assertThat(log.find(new AuditQuery(null, null, null, 1, 1)))
          .extracting(AuditRecord::id)
          .containsExactly("a2");
      assertThat(log.find(new AuditQuery("nobody", null, null, 0, 10))).isEqualTo(List.of());
      AuditRecord first = log.find(new AuditQuery(null, "job.freeze", null, 0, 1)).get(0);
      assertThat(first.before()).isEqualTo("{\"frozen\":false}");
      assertThat(first.after()).isEqualTo("{\"frozen\":true}");
      assertThat(first.at()).isEqualTo(1_000);
    }
  }
}
