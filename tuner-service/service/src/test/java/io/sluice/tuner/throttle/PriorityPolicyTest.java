package io.sluice.tuner.throttle;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PriorityPolicyTest {
  private final PriorityPolicy policy =
      new PriorityPolicy(
          2, Map.of("etl", 1, "adhoc", 4), Map.of("prod/etl/alice/urgent", 9), Set.of("etl"));

  @Test
  void jobOverridesQueueWhichOverridesTheDefault() {
    assertThat(policy.resolve("prod/etl/alice/urgent", "etl"))
        .isEqualTo(new PriorityPolicy.Resolved(9, "job", true));
    assertThat(policy.resolve("prod/etl/alice/nightly", "etl"))
        .isEqualTo(new PriorityPolicy.Resolved(1, "queue", true));
    assertThat(policy.resolve("k", "adhoc"))
        .isEqualTo(new PriorityPolicy.Resolved(4, "queue", false));
    assertThat(policy.resolve("k", "other"))
        .isEqualTo(new PriorityPolicy.Resolved(2, "default", false));
    assertThat(policy.resolve(null, null))
        .isEqualTo(new PriorityPolicy.Resolved(2, "default", false));
  }
}
