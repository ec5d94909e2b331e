package io.sluice.tuner.tier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import java.util.Map;
import org.junit.jupiter.api.Test;

class OverlaysTest {
  static final OverlaySettings YARN_PUSH = new OverlaySettings(true, true, "m1:9097,m2:9097", "auto", "c1:19999");
  static final OverlaySettings STANDALONE = new OverlaySettings(false, false, "m1:9097", "AUTO", "c1:19999");

  @Test
  void sparkPushOnYarnWithTheMergeManagerGetsPushAndItsCompanions() {
    Overlay o = Overlays.of(Tier.SPARK_PUSH, Map.of("spark.executor.memory", "4g"), "root.etl", YARN_PUSH, "r1",
        "why");
    assertThat(o.refused()).isFalse();
    assertThat(o.confs()).containsExactly(
        entry("spark.shuffle.push.enabled", "true"),
        entry("spark.serializer", "org.apache.spark.serializer.KryoSerializer"),
        entry("spark.shuffle.service.enabled", "true"),
        entry("spark.yarn.maxAppAttempts", "2"),
        entry("spark.sluice.tier", "SPARK_PUSH"),
        entry("spark.sluice.tier.rule", "r1"),
        entry("spark.sluice.tier.reason", "why"));
  }

  @Test
  void userKeysAreNeverOverriddenOnlyLeftOut() {
    Map<String, String> user = Map.of("spark.serializer", "org.apache.spark.serializer.KryoSerializer",
        "spark.shuffle.service.enabled", "true", "spark.yarn.maxAppAttempts", "3", "spark.master", "yarn");
    Overlay o = Overlays.of(Tier.SPARK_PUSH, user, "q", YARN_PUSH, "r1", "why");
    assertThat(o.confs()).containsExactly(
        entry("spark.shuffle.push.enabled", "true"),
        entry("spark.sluice.tier", "SPARK_PUSH"),
        entry("spark.sluice.tier.rule", "r1"),
        entry("spark.sluice.tier.reason", "why"));
  }

  @Test
  void sparkPushIsRefusedWhereItCannotWork() {
    assertThat(Overlays.of(Tier.SPARK_PUSH, Map.of(), "q", STANDALONE, "r", "w").refusal())
        .isEqualTo("SPARK_PUSH needs YARN and the job's cluster is not configured as YARN");
    assertThat(Overlays.of(Tier.SPARK_PUSH, Map.of(), "q", new OverlaySettings(true, false, "", "", ""), "r", "w")
        .refusal()).isEqualTo("SPARK_PUSH needs the push merge manager on the cluster's ESS, which the "
            + "configuration does not declare");
    assertThat(refusal(Tier.SPARK_PUSH, "spark.master", "local[2]"))
        .isEqualTo("SPARK_PUSH runs only on YARN; the job's spark.master is local[2]");
    assertThat(refusal(Tier.SPARK_PUSH, "spark.shuffle.push.enabled", "false"))
        .isEqualTo("the user set spark.shuffle.push.enabled=false");
    assertThat(refusal(Tier.SPARK_PUSH, "spark.io.encryption.enabled", "true"))
        .isEqualTo("Spark push-based shuffle does not support spark.io.encryption.enabled=true");
    assertThat(refusal(Tier.SPARK_PUSH, "spark.serializer", "org.apache.spark.serializer.JavaSerializer"))
        .isEqualTo("SPARK_PUSH needs a serializer that relocates serialized records "
            + "(org.apache.spark.serializer.KryoSerializer); the user set spark.serializer="
            + "org.apache.spark.serializer.JavaSerializer");
    assertThat(refusal(Tier.SPARK_PUSH, "spark.shuffle.service.enabled", "false"))
        .isEqualTo("the user set spark.shuffle.service.enabled=false and SPARK_PUSH needs the ESS as its fallback");
    assertThat(refusal(Tier.SPARK_PUSH, "spark.yarn.maxAppAttempts", "1")).isEqualTo("the user set "
        + "spark.yarn.maxAppAttempts=1, so a failed push-tier attempt could not be retried on the ESS");
    assertThat(refusal(Tier.SPARK_PUSH, "spark.shuffle.manager", "com.example.MyShuffle"))
        .isEqualTo("the user set spark.shuffle.manager=com.example.MyShuffle");
    assertThat(Overlays.of(Tier.SPARK_PUSH, Map.of("spark.shuffle.manager", "sort"), "q", YARN_PUSH, "r", "w")
        .refused()).isFalse();
  }

  @Test
  void celebornGetsItsManagerMastersFallbackPolicyAndTheQueueAsTenant() {
    Overlay o = Overlays.of(Tier.CELEBORN, Map.of(), "root.etl", STANDALONE, "c1", "why");
    assertThat(o.confs()).containsExactly(
        entry("spark.shuffle.manager", "org.apache.spark.shuffle.celeborn.SparkShuffleManager"),
        entry("spark.celeborn.master.endpoints", "m1:9097"),
        entry("spark.celeborn.client.spark.shuffle.fallback.policy", "AUTO"),
        entry("spark.celeborn.quota.identity.provider", "org.apache.celeborn.common.identity.DefaultIdentityProvider"),
        entry("spark.celeborn.quota.identity.user-specific.tenant", "root.etl"),
        entry("spark.shuffle.service.enabled", "true"),
        entry("spark.yarn.maxAppAttempts", "2"),
        entry("spark.sluice.tier", "CELEBORN"),
        entry("spark.sluice.tier.shuffleManager", "org.apache.spark.shuffle.celeborn.SparkShuffleManager"),
        entry("spark.sluice.tier.rule", "c1"),
        entry("spark.sluice.tier.reason", "why"));
    // no queue: Celeborn's default tenant (no identity keys)
    assertThat(Overlays.of(Tier.CELEBORN, Map.of(), "", YARN_PUSH, "c1", "why").confs())
        .doesNotContainKeys("spark.celeborn.quota.identity.provider",
            "spark.celeborn.quota.identity.user-specific.tenant")
        .containsEntry("spark.celeborn.master.endpoints", "m1:9097,m2:9097")
        .containsEntry("spark.celeborn.client.spark.shuffle.fallback.policy", "AUTO");
    assertThat(Overlays.of(Tier.CELEBORN, Map.of(), "q", new OverlaySettings(false, false, "", "AUTO", ""), "c",
        "w").refusal()).isEqualTo("CELEBORN master endpoints are not configured");
    assertThat(refusal(Tier.CELEBORN, "spark.shuffle.manager", "sort"))
        .isEqualTo("the user set spark.shuffle.manager=sort");
    assertThat(Overlays.of(Tier.CELEBORN, Map.of("spark.shuffle.manager",
        "org.apache.spark.shuffle.celeborn.SparkShuffleManager"), "q", STANDALONE, "c", "w").confs())
        .doesNotContainKey("spark.shuffle.manager")
        .containsEntry("spark.sluice.tier.shuffleManager", "org.apache.spark.shuffle.celeborn.SparkShuffleManager");
  }

  @Test
  void uniffleGetsItsDelegationManagerQuorumAndTheQueueAsAccessId() {
    Overlay o = Overlays.of(Tier.UNIFFLE, Map.of(), "root.etl", STANDALONE, "u1", "why");
    assertThat(o.confs()).containsExactly(
        entry("spark.shuffle.manager", "org.apache.spark.shuffle.DelegationRssShuffleManager"),
        entry("spark.rss.coordinator.quorum", "c1:19999"),
        entry("spark.rss.access.id", "root.etl"),
        entry("spark.serializer", "org.apache.spark.serializer.KryoSerializer"),
        entry("spark.shuffle.service.enabled", "true"),
        entry("spark.yarn.maxAppAttempts", "2"),
        entry("spark.sluice.tier", "UNIFFLE"),
        entry("spark.sluice.tier.shuffleManager", "org.apache.spark.shuffle.DelegationRssShuffleManager"),
        entry("spark.sluice.tier.rule", "u1"),
        entry("spark.sluice.tier.reason", "why"));
    assertThat(Overlays.of(Tier.UNIFFLE, Map.of(), " ", STANDALONE, "u1", "w").refusal())
        .isEqualTo("UNIFFLE needs the queue as its access id and the job has no queue");
    assertThat(Overlays.of(Tier.UNIFFLE, Map.of(), "q", new OverlaySettings(false, false, "m", "AUTO", ""), "u",
        "w").refusal()).isEqualTo("UNIFFLE coordinator quorum is not configured");
  }

  @Test
  void essMarkersNameTheRuleAndTheReasonOnOneLine() {
    assertThat(Overlays.essMarkers(Map.of(), "r", "refused:\nno room")).containsExactly(
        entry("spark.sluice.tier", "ESS"), entry("spark.sluice.tier.rule", "r"),
        entry("spark.sluice.tier.reason", "refused: no room"));
    assertThat(Overlays.essMarkers(Map.of("spark.sluice.tier", "ESS"), null, "x"))
        .containsExactly(entry("spark.sluice.tier.reason", "x"));
    assertThat(Overlays.essMarkers(Map.of(), null, "y".repeat(600)).get("spark.sluice.tier.reason")).hasSize(500);
  }

  private static String refusal(Tier tier, String key, String value) {
    Overlay o = Overlays.of(tier, Map.of(key, value), "q", YARN_PUSH, "r", "w");
    assertThat(o.confs()).isEmpty();
    return o.refusal();
  }
}
