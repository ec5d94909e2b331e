package io.sluice.tuner.tier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import io.sluice.contracts.Tier;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OverlaysTest {
  static final String JAR = "/opt/sluice/sluice-fallback-manager.jar";
  static final String CELEBORN_JAR = "/opt/celeborn/celeborn-client-spark-3-shaded_2.12-0.5.4.jar";
  static final OverlaySettings YARN_PUSH =
      new OverlaySettings(true, true, "m1:9097,m2:9097", "auto", "c1:19999", JAR, CELEBORN_JAR, "");
  static final OverlaySettings STANDALONE =
      new OverlaySettings(false, false, "m1:9097", "AUTO", "c1:19999", JAR, CELEBORN_JAR, "");

  @Test
  void sparkPushOnYarnWithTheMergeManagerGetsPushAndItsCompanions() {
    Overlay o =
        Overlays.of(
            Tier.SPARK_PUSH,
            Map.of("spark.executor.memory", "4g"),
            "root.etl",
            YARN_PUSH,
            "r1",
            "why");
    assertThat(o.refused()).isFalse();
    assertThat(o.confs())
        .containsExactly(
            entry("spark.shuffle.push.enabled", "true"),
            entry("spark.serializer", "org.apache.spark.serializer.KryoSerializer"),
            entry("spark.shuffle.manager", "io.sluice.fallback.SluiceShuffleManager"),
            entry("spark.driver.extraClassPath", JAR),
            entry("spark.executor.extraClassPath", JAR),
            entry("spark.shuffle.service.enabled", "true"),
            entry("spark.yarn.maxAppAttempts", "2"),
            entry("spark.sluice.tier", "SPARK_PUSH"),
            entry(
                "spark.sluice.tier.shuffleManager",
                "org.apache.spark.shuffle.sort.SortShuffleManager"),
            entry("spark.sluice.tier.rule", "r1"),
            entry("spark.sluice.tier.reason", "why"));
  }

  @Test
  void userKeysAreNeverOverriddenOnlyLeftOut() {
    Map<String, String> user =
        Map.of(
            "spark.serializer",
            "org.apache.spark.serializer.KryoSerializer",
            "spark.shuffle.service.enabled",
            "true",
            "spark.yarn.maxAppAttempts",
            "3",
            "spark.master",
            "yarn");
    Overlay o = Overlays.of(Tier.SPARK_PUSH, user, "q", YARN_PUSH, "r1", "why");
    assertThat(o.confs())
        .containsExactly(
            entry("spark.shuffle.push.enabled", "true"),
            entry("spark.shuffle.manager", "io.sluice.fallback.SluiceShuffleManager"),
            entry("spark.driver.extraClassPath", JAR),
            entry("spark.executor.extraClassPath", JAR),
            entry("spark.sluice.tier", "SPARK_PUSH"),
            entry(
                "spark.sluice.tier.shuffleManager",
                "org.apache.spark.shuffle.sort.SortShuffleManager"),
            entry("spark.sluice.tier.rule", "r1"),
            entry("spark.sluice.tier.reason", "why"));
  }

  @Test
  void sparkPushIsRefusedWhereItCannotWork() {
    assertThat(Overlays.of(Tier.SPARK_PUSH, Map.of(), "q", STANDALONE, "r", "w").refusal())
        .isEqualTo("SPARK_PUSH needs YARN and the job's cluster is not configured as YARN");
    assertThat(
            Overlays.of(
                    Tier.SPARK_PUSH,
                    Map.of(),
                    "q",
                    new OverlaySettings(true, false, "", "", "", JAR, "", ""),
                    "r",
                    "w")
                .refusal())
        .isEqualTo(
            "SPARK_PUSH needs the push merge manager on the cluster's ESS, which the "
                + "configuration does not declare");
    assertThat(refusal(Tier.SPARK_PUSH, "spark.master", "local[2]"))
        .isEqualTo("SPARK_PUSH runs only on YARN; the job's spark.master is local[2]");
    assertThat(refusal(Tier.SPARK_PUSH, "spark.shuffle.push.enabled", "false"))
        .isEqualTo("the user set spark.shuffle.push.enabled=false");
    assertThat(refusal(Tier.SPARK_PUSH, "spark.io.encryption.enabled", "true"))
        .isEqualTo("Spark push-based shuffle does not support spark.io.encryption.enabled=true");
    assertThat(
            refusal(
                Tier.SPARK_PUSH, "spark.serializer", "org.apache.spark.serializer.JavaSerializer"))
        .isEqualTo(
            "SPARK_PUSH needs a serializer that relocates serialized records "
                + "(org.apache.spark.serializer.KryoSerializer); the user set spark.serializer="
                + "org.apache.spark.serializer.JavaSerializer");
    assertThat(refusal(Tier.SPARK_PUSH, "spark.shuffle.service.enabled", "false"))
        .isEqualTo(
            "the user set spark.shuffle.service.enabled=false and SPARK_PUSH needs the ESS as its fallback");
    assertThat(refusal(Tier.SPARK_PUSH, "spark.yarn.maxAppAttempts", "1"))
        .isEqualTo(
            "the user set "
                + "spark.yarn.maxAppAttempts=1, so a failed push-tier attempt could not be retried on the ESS");
    assertThat(refusal(Tier.SPARK_PUSH, "spark.shuffle.manager", "com.example.MyShuffle"))
        .isEqualTo("the user set spark.shuffle.manager=com.example.MyShuffle");
  }

  @Test
  void aUserWhoChoseTheTiersOwnManagerKeepsItWithoutTheFallbackManagerAndTheReasonSaysSo() {
    Overlay push =
        Overlays.of(
            Tier.SPARK_PUSH, Map.of("spark.shuffle.manager", "sort"), "q", YARN_PUSH, "r", "w");
    assertThat(push.confs())
        .containsExactly(
            entry("spark.shuffle.push.enabled", "true"),
            entry("spark.serializer", "org.apache.spark.serializer.KryoSerializer"),
            entry("spark.shuffle.service.enabled", "true"),
            entry("spark.yarn.maxAppAttempts", "2"),
            entry("spark.sluice.tier", "SPARK_PUSH"),
            entry(
                "spark.sluice.tier.shuffleManager",
                "org.apache.spark.shuffle.sort.SortShuffleManager"),
            entry("spark.sluice.tier.rule", "r"),
            entry(
                "spark.sluice.tier.reason",
                "w; the user set spark.shuffle.manager=sort (the tier's own manager): "
                    + "kept, without Sluice's fallback manager"));
    Overlay celeborn =
        Overlays.of(
            Tier.CELEBORN,
            Map.of(
                "spark.shuffle.manager",
                "org.apache.spark.shuffle.celeborn.SparkShuffleManager",
                "spark.executor.extraClassPath",
                "/u.jar"),
            "",
            STANDALONE,
            "c",
            "w");
    assertThat(celeborn.confs())
        .doesNotContainKeys(
            "spark.shuffle.manager",
            "spark.driver.extraClassPath",
            "spark.executor.extraClassPath",
            "spark.sluice.original.spark.executor.extraClassPath")
        .containsEntry(
            "spark.sluice.tier.shuffleManager",
            "org.apache.spark.shuffle.celeborn.SparkShuffleManager")
        .containsEntry(
            "spark.sluice.tier.reason",
            "w; the user set spark.shuffle.manager="
                + "org.apache.spark.shuffle.celeborn.SparkShuffleManager (the tier's own manager): kept, without Sluice's "
                + "fallback manager");
  }

  @Test
  void theSluiceJarsArePrependedToAUsersClassPathWhoseValueIsKeptAsTheOriginal() {
    Overlay o =
        Overlays.of(
            Tier.CELEBORN,
            Map.of(
                "spark.driver.extraClassPath",
                "/u/a.jar:/u/b.jar",
                "spark.executor.extraClassPath",
                JAR + ":/u/a.jar"),
            "",
            STANDALONE,
            "c",
            "w");
    assertThat(o.confs())
        .containsEntry(
            "spark.driver.extraClassPath", JAR + ":" + CELEBORN_JAR + ":/u/a.jar:/u/b.jar")
        .containsEntry("spark.sluice.original.spark.driver.extraClassPath", "/u/a.jar:/u/b.jar")
        // the user already lists the manager jar: only the client jar is prepended
        .containsEntry("spark.executor.extraClassPath", CELEBORN_JAR + ":" + JAR + ":/u/a.jar")
        .containsEntry("spark.sluice.original.spark.executor.extraClassPath", JAR + ":/u/a.jar");
    // a user value that already lists every Sluice jar is left as it is (not in the overlay, no
    // marker)
    Overlay all =
        Overlays.of(
            Tier.SPARK_PUSH,
            Map.of("spark.executor.extraClassPath", "/u/a.jar:" + JAR),
            "q",
            YARN_PUSH,
            "r",
            "w");
    assertThat(all.confs())
        .doesNotContainKeys(
            "spark.executor.extraClassPath", "spark.sluice.original.spark.executor.extraClassPath")
        .containsEntry("spark.driver.extraClassPath", JAR);
    // a blank user value is replaced by the jars alone (and kept as the original)
    assertThat(
            Overlays.of(
                    Tier.SPARK_PUSH,
                    Map.of("spark.driver.extraClassPath", " "),
                    "q",
                    YARN_PUSH,
                    "r",
                    "w")
                .confs())
        .containsEntry("spark.driver.extraClassPath", JAR)
        .containsEntry("spark.sluice.original.spark.driver.extraClassPath", " ");
  }

  @Test
  void withoutTheFallbackManagerJarEveryPushTierIsRefused() {
    OverlaySettings noJar =
        new OverlaySettings(true, true, "m1:9097", "AUTO", "c1:19999", " ", "", "");
    for (Tier t : new Tier[] {Tier.SPARK_PUSH, Tier.CELEBORN, Tier.UNIFFLE}) {
      assertThat(Overlays.of(t, Map.of(), "q", noJar, "r", "w").refusal())
          .isEqualTo(
              t
                  + " needs Sluice's fallback "
                  + "manager on the nodes' class path and its jar (sluice.tier.overlay.manager-jar) is not configured");
    }
    // a user who chose the tier's own manager needs no Sluice jar
    assertThat(
            Overlays.of(
                    Tier.CELEBORN,
                    Map.of(
                        "spark.shuffle.manager",
                        "org.apache.spark.shuffle.celeborn.SparkShuffleManager"),
                    "q",
                    noJar,
                    "r",
                    "w")
                .refused())
        .isFalse();
  }

  @Test
  void celebornGetsItsManagerMastersFallbackPolicyAndTheQueueAsTenant() {
    Overlay o = Overlays.of(Tier.CELEBORN, Map.of(), "root.etl", STANDALONE, "c1", "why");
    assertThat(o.confs())
        .containsExactly(
            entry("spark.celeborn.master.endpoints", "m1:9097"),
            entry("spark.celeborn.client.spark.shuffle.fallback.policy", "AUTO"),
            entry(
                "spark.celeborn.quota.identity.provider",
                "org.apache.celeborn.common.identity.DefaultIdentityProvider"),
            entry("spark.celeborn.quota.identity.user-specific.tenant", "root.etl"),
            entry("spark.shuffle.manager", "io.sluice.fallback.SluiceShuffleManager"),
            entry("spark.driver.extraClassPath", JAR + ":" + CELEBORN_JAR),
            entry("spark.executor.extraClassPath", JAR + ":" + CELEBORN_JAR),
            entry("spark.shuffle.service.enabled", "true"),
            entry("spark.yarn.maxAppAttempts", "2"),
            entry("spark.sluice.tier", "CELEBORN"),
            entry(
                "spark.sluice.tier.shuffleManager",
                "org.apache.spark.shuffle.celeborn.SparkShuffleManager"),
            entry("spark.sluice.tier.rule", "c1"),
            entry("spark.sluice.tier.reason", "why"));
    // no queue: Celeborn's default tenant (no identity keys)
    assertThat(Overlays.of(Tier.CELEBORN, Map.of(), "", YARN_PUSH, "c1", "why").confs())
        .doesNotContainKeys(
            "spark.celeborn.quota.identity.provider",
            "spark.celeborn.quota.identity.user-specific.tenant")
        .containsEntry("spark.celeborn.master.endpoints", "m1:9097,m2:9097")
        .containsEntry("spark.celeborn.client.spark.shuffle.fallback.policy", "AUTO");
    assertThat(
            Overlays.of(
                    Tier.CELEBORN,
                    Map.of(),
                    "q",
                    new OverlaySettings(false, false, "", "AUTO", "", JAR, "", ""),
                    "c",
                    "w")
                .refusal())
        .isEqualTo("CELEBORN master endpoints are not configured");
    assertThat(refusal(Tier.CELEBORN, "spark.shuffle.manager", "sort"))
        .isEqualTo("the user set spark.shuffle.manager=sort");
    assertThat(
            Overlays.of(
                    Tier.CELEBORN,
                    Map.of(
                        "spark.shuffle.manager",
                        "org.apache.spark.shuffle.celeborn.SparkShuffleManager"),
                    "q",
                    STANDALONE,
                    "c",
                    "w")
                .confs())
        .doesNotContainKey("spark.shuffle.manager")
        .containsEntry(
            "spark.sluice.tier.shuffleManager",
            "org.apache.spark.shuffle.celeborn.SparkShuffleManager");
  }

  @Test
  void uniffleGetsItsDelegationManagerQuorumAndTheQueueAsAccessId() {
    Overlay o = Overlays.of(Tier.UNIFFLE, Map.of(), "root.etl", STANDALONE, "u1", "why");
    assertThat(o.confs())
        .containsExactly(
            entry("spark.rss.coordinator.quorum", "c1:19999"),
            entry("spark.rss.access.id", "root.etl"),
            entry("spark.serializer", "org.apache.spark.serializer.KryoSerializer"),
            entry("spark.shuffle.manager", "io.sluice.fallback.SluiceShuffleManager"),
            entry("spark.driver.extraClassPath", JAR),
            entry("spark.executor.extraClassPath", JAR),
            entry("spark.shuffle.service.enabled", "true"),
            entry("spark.yarn.maxAppAttempts", "2"),
            entry("spark.sluice.tier", "UNIFFLE"),
            entry(
                "spark.sluice.tier.shuffleManager",
                "org.apache.spark.shuffle.DelegationRssShuffleManager"),
            entry("spark.sluice.tier.rule", "u1"),
            entry("spark.sluice.tier.reason", "why"));
    assertThat(Overlays.of(Tier.UNIFFLE, Map.of(), " ", STANDALONE, "u1", "w").refusal())
        .isEqualTo("UNIFFLE needs the queue as its access id and the job has no queue");
    assertThat(
            Overlays.of(
                    Tier.UNIFFLE,
                    Map.of(),
                    "q",
                    new OverlaySettings(false, false, "m", "AUTO", "", JAR, "", ""),
                    "u",
                    "w")
                .refusal())
        .isEqualTo("UNIFFLE coordinator quorum is not configured");
  }

  @Test
  void essMarkersNameTheRuleAndTheReasonOnOneLine() {
    assertThat(Overlays.essMarkers(Map.of(), "r", "refused:\nno room"))
        .containsExactly(
            entry("spark.sluice.tier", "ESS"),
            entry("spark.sluice.tier.rule", "r"),
            entry("spark.sluice.tier.reason", "refused: no room"));
    assertThat(Overlays.essMarkers(Map.of("spark.sluice.tier", "ESS"), null, "x"))
        .containsExactly(entry("spark.sluice.tier.reason", "x"));
    assertThat(Overlays.essMarkers(Map.of(), null, "y".repeat(600)).get("spark.sluice.tier.reason"))
        .hasSize(500);
  }

  private static String refusal(Tier tier, String key, String value) {
    Overlay o = Overlays.of(tier, Map.of(key, value), "q", YARN_PUSH, "r", "w");
    assertThat(o.confs()).isEmpty();
    return o.refusal();
  }
}
