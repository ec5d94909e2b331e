package io.sluice.fallback.choice;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.contracts.Tier;
import io.sluice.fallback.Loopback;
import io.sluice.fallback.conf.FallbackReason;
import java.net.ServerSocket;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The choice against real loopback sockets (a listening "master" = healthy tier, a closed port =
 * unreachable tier) and real class loading (the Celeborn 0.5.4 Spark client is on the test class
 * path).
 */
class TierChooserTest {
  private static final String CELEBORN = "org.apache.spark.shuffle.celeborn.SparkShuffleManager";
  private static final String SORT = "org.apache.spark.shuffle.sort.SortShuffleManager";
  private static final TierChooser CHOOSER =
      TierChooser.standard(io.sluice.fallback.ShuffleManagersAccess::problem);

  private ServerSocket master;
  private int deadPort;

  @BeforeEach
  void sockets() throws Exception {
    master = Loopback.listening();
    deadPort = Loopback.closedPort();
  }

  @AfterEach
  void close() throws Exception {
    master.close();
  }

  private Map<String, String> celeborn(String endpoints) {
    Map<String, String> m = new HashMap<>();
    m.put("spark.sluice.tier", "CELEBORN");
    m.put("spark.sluice.tier.shuffleManager", CELEBORN);
    m.put("spark.celeborn.master.endpoints", endpoints);
    m.put("spark.sluice.tier.healthCheck.timeoutMs", "5000");
    return m;
  }

  private String healthy() {
    return "127.0.0.1:" + master.getLocalPort();
  }

  private String dead() {
    return "127.0.0.1:" + deadPort;
  }

  @Test
  void tierValuesAreTheOnesTunerServiceWrites() {
    assertThat(Tier.ESS.wireName()).isEqualTo(io.sluice.contracts.TierMarkers.ESS);
    assertThat(Tier.parse("spark-push")).contains(Tier.SPARK_PUSH);
  }

  @Test
  void firstAttemptWithAHealthyTierRunsTheTier() {
    Map<String, String> conf = celeborn(dead() + "," + healthy());
    conf.put("spark.yarn.app.attemptId", "1");
    assertThat(CHOOSER.choose(conf))
        .isEqualTo(new Decision("CELEBORN", Tier.CELEBORN, CELEBORN, null, "", false));
  }

  @Test
  void noAttemptIdCountsAsTheFirstAttempt() {
    assertThat(CHOOSER.choose(celeborn(healthy())).outcome()).isEqualTo(Tier.CELEBORN);
  }

  @Test
  void firstAttemptWithAnUnreachableTierFallsBackToSortAndEssWithTheReason() {
    Decision d = CHOOSER.choose(celeborn(dead()));
    assertThat(d.outcome()).isEqualTo(Tier.ESS);
    assertThat(d.shuffleManager()).isEqualTo(SORT);
    assertThat(d.reason()).isEqualTo(FallbackReason.TIER_UNHEALTHY);
    assertThat(d.detail())
        .isEqualTo(
            "no Celeborn master answered within 5000 ms (" + dead() + " connection refused)");
    assertThat(d.disablePush()).isFalse();
  }

  @Test
  void withoutTheAttemptInTheConfTheDriversYarnContainerIdTellsTheAttempt() {
    // Spark 3.5 in YARN cluster mode: no spark.yarn.app.attemptId in the conf; the AM container's
    // CONTAINER_ID has it
    Map<String, String> conf = celeborn(healthy());
    assertThat(
            CHOOSER.choose(conf, Map.of("CONTAINER_ID", "container_1795322040992_0001_02_000001")))
        .isEqualTo(
            new Decision(
                "CELEBORN",
                Tier.ESS,
                SORT,
                FallbackReason.LATER_ATTEMPT,
                "application attempt 2 "
                    + "(container container_1795322040992_0001_02_000001): the push tier is only tried on attempt 1",
                false));
    assertThat(
            CHOOSER
                .choose(conf, Map.of("CONTAINER_ID", "container_e17_1795322040992_0001_01_000001"))
                .outcome())
        .isEqualTo(Tier.CELEBORN);
    assertThat(CHOOSER.choose(conf, Map.of("CONTAINER_ID", "not-a-container")))
        .isEqualTo(
            new Decision(
                "CELEBORN",
                Tier.ESS,
                SORT,
                FallbackReason.BAD_CONF,
                "CONTAINER_ID='not-a-container' is not a YARN container id",
                false));
    // the conf's attempt id, when present, wins over the container
    conf.put("spark.yarn.app.attemptId", "1");
    assertThat(CHOOSER.choose(conf, Map.of("CONTAINER_ID", "container_1_0001_02_000001")).outcome())
        .isEqualTo(Tier.CELEBORN);
    assertThat(TierChooser.attemptOfContainer("container_e3_1_0001_12_000007")).isEqualTo(12);
  }

  @Test
  void aLaterAttemptRunsOnSortAndEssEvenWhenTheTierIsHealthy() {
    Map<String, String> conf = celeborn(healthy());
    conf.put("spark.yarn.app.attemptId", "2");
    assertThat(CHOOSER.choose(conf))
        .isEqualTo(
            new Decision(
                "CELEBORN",
                Tier.ESS,
                SORT,
                FallbackReason.LATER_ATTEMPT,
                "application attempt 2: the push tier is only tried on attempt 1",
                false));
  }

  @Test
  void noTierRequestedIsTheEssWithoutAFallback() {
    assertThat(CHOOSER.choose(Map.of()))
        .isEqualTo(new Decision(null, Tier.ESS, SORT, null, "", false));
    assertThat(CHOOSER.choose(Map.of("spark.sluice.tier", " ")).fellBack()).isFalse();
    assertThat(CHOOSER.choose(Map.of("spark.sluice.tier", "ESS")))
        .isEqualTo(new Decision("ESS", Tier.ESS, SORT, null, "", false));
    assertThat(CHOOSER.choose(Map.of("spark.sluice.tier", "ess")).fellBack()).isFalse();
  }

  @Test
  void missingOrGarbageConfEndsOnSortAndEssNeverInAFailure() {
    Map<String, String> unknown = celeborn(healthy());
    unknown.put("spark.sluice.tier", "riffle");
    assertThat(CHOOSER.choose(unknown))
        .isEqualTo(
            new Decision(
                "riffle",
                Tier.ESS,
                SORT,
                FallbackReason.UNKNOWN_TIER,
                "unknown tier 'riffle' (known: ESS, SPARK_PUSH, CELEBORN, UNIFFLE)",
                false));

    Map<String, String> noManager = celeborn(healthy());
    noManager.remove("spark.sluice.tier.shuffleManager");
    assertThat(CHOOSER.choose(noManager))
        .isEqualTo(
            new Decision(
                "CELEBORN",
                Tier.ESS,
                SORT,
                FallbackReason.NO_TIER_MANAGER,
                "spark.sluice.tier.shuffleManager is not set",
                false));

    Map<String, String> missingClass = celeborn(healthy());
    missingClass.put("spark.sluice.tier.shuffleManager", "org.example.NoSuchManager");
    Decision d = CHOOSER.choose(missingClass);
    assertThat(d.reason()).isEqualTo(FallbackReason.TIER_MANAGER_UNLOADABLE);
    assertThat(d.detail())
        .startsWith(
            "org.example.NoSuchManager: cannot be loaded (java.lang.ClassNotFoundException");

    Map<String, String> notAManager = celeborn(healthy());
    notAManager.put("spark.sluice.tier.shuffleManager", "java.lang.String");
    assertThat(CHOOSER.choose(notAManager))
        .isEqualTo(
            new Decision(
                "CELEBORN",
                Tier.ESS,
                SORT,
                FallbackReason.TIER_MANAGER_UNLOADABLE,
                "java.lang.String: not a org.apache.spark.shuffle.ShuffleManager",
                false));

    Map<String, String> badEndpoints = celeborn("m1:port");
    assertThat(CHOOSER.choose(badEndpoints))
        .isEqualTo(
            new Decision(
                "CELEBORN",
                Tier.ESS,
                SORT,
                FallbackReason.BAD_CONF,
                "spark.celeborn.master.endpoints: bad port in endpoint 'm1:port'",
                false));

    Map<String, String> noEndpoints = celeborn(healthy());
    noEndpoints.remove("spark.celeborn.master.endpoints");
    assertThat(CHOOSER.choose(noEndpoints))
        .isEqualTo(
            new Decision(
                "CELEBORN",
                Tier.ESS,
                SORT,
                FallbackReason.BAD_CONF,
                "spark.celeborn.master.endpoints: no endpoint in ''",
                false));

    Map<String, String> badAttempt = celeborn(healthy());
    badAttempt.put("spark.yarn.app.attemptId", "appattempt_x");
    assertThat(CHOOSER.choose(badAttempt))
        .isEqualTo(
            new Decision(
                "CELEBORN",
                Tier.ESS,
                SORT,
                FallbackReason.BAD_CONF,
                "spark.yarn.app.attemptId='appattempt_x' is not an attempt number",
                false));

    Map<String, String> badTimeout = celeborn(healthy());
    badTimeout.put("spark.sluice.tier.healthCheck.timeoutMs", "1s");
    assertThat(CHOOSER.choose(badTimeout))
        .isEqualTo(
            new Decision(
                "CELEBORN",
                Tier.ESS,
                SORT,
                FallbackReason.BAD_CONF,
                "spark.sluice.tier.healthCheck.timeoutMs='1s' is not a positive number of "
                    + "milliseconds",
                false));
  }

  @Test
  void uniffleIsCheckedOnItsCoordinatorQuorum() {
    Map<String, String> conf = new HashMap<>();
    conf.put("spark.sluice.tier", "UNIFFLE");
    conf.put(
        "spark.sluice.tier.shuffleManager",
        SORT); // stands in for Uniffle's manager: the class only has to load
    conf.put("spark.rss.coordinator.quorum", dead() + "," + healthy());
    assertThat(CHOOSER.choose(conf).outcome()).isEqualTo(Tier.UNIFFLE);
    conf.put("spark.rss.coordinator.quorum", dead());
    Decision d = CHOOSER.choose(conf);
    assertThat(d.reason()).isEqualTo(FallbackReason.TIER_UNHEALTHY);
    assertThat(d.detail()).startsWith("no Uniffle coordinator answered within 1000 ms (" + dead());
  }

  @Test
  void sparkPushRunsOnYarnWithTheEssAndSwitchesPushOffWhenItFallsBack() {
    Map<String, String> conf =
        new HashMap<>(
            Map.of(
                "spark.sluice.tier",
                "SPARK_PUSH",
                "spark.master",
                "yarn",
                "spark.shuffle.service.enabled",
                "true",
                "spark.shuffle.push.enabled",
                "true"));
    assertThat(CHOOSER.choose(conf))
        .isEqualTo(new Decision("SPARK_PUSH", Tier.SPARK_PUSH, SORT, null, "", false));

    conf.put("spark.yarn.app.attemptId", "2");
    Decision later = CHOOSER.choose(conf);
    assertThat(later.reason()).isEqualTo(FallbackReason.LATER_ATTEMPT);
    assertThat(later.disablePush()).isTrue();

    Map<String, String> standalone = new HashMap<>(conf);
    standalone.remove("spark.yarn.app.attemptId");
    standalone.put("spark.master", "spark://127.0.0.1:7077");
    assertThat(CHOOSER.choose(standalone))
        .isEqualTo(
            new Decision(
                "SPARK_PUSH",
                Tier.ESS,
                SORT,
                FallbackReason.TIER_UNHEALTHY,
                "Spark push-based shuffle needs YARN and the ESS (spark.master="
                    + "spark://127.0.0.1:7077, spark.shuffle.service.enabled=true)",
                true));
  }

  @Test
  void theDecisionIsWrittenToTheConfAsTheOutcomeKeys() {
    Decision fallback = CHOOSER.choose(celeborn(dead()));
    Map<String, String> expected = new LinkedHashMap<>();
    expected.put("spark.shuffle.manager", SORT);
    expected.put("spark.sluice.tier.outcome", "ESS");
    expected.put("spark.sluice.tier.fallbackReason", "TIER_UNHEALTHY");
    expected.put("spark.sluice.tier.fallbackDetail", fallback.detail());
    expected.put("spark.sluice.tier.decisionMs", "7");
    assertThat(fallback.confEntries(7)).containsExactlyEntriesOf(expected);

    Decision push =
        new Decision("SPARK_PUSH", Tier.ESS, SORT, FallbackReason.LATER_ATTEMPT, "a2", true);
    assertThat(push.confEntries(0)).containsEntry("spark.shuffle.push.enabled", "false");

    Decision tier = CHOOSER.choose(celeborn(healthy()));
    assertThat(tier.confEntries(3))
        .containsExactly(
            Map.entry("spark.shuffle.manager", CELEBORN),
            Map.entry("spark.sluice.tier.outcome", "CELEBORN"),
            Map.entry("spark.sluice.tier.decisionMs", "3"));
    assertThat(tier.summary())
        .isEqualTo(
            "SLUICE_TIER_OUTCOME requested=CELEBORN outcome=CELEBORN shuffleManager=" + CELEBORN);
  }
}
