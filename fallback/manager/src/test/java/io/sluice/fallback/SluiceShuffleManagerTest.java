package io.sluice.fallback;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.contracts.Tier;
import io.sluice.fallback.conf.FallbackReason;
import java.net.ServerSocket;
import org.apache.spark.SparkConf;
import org.apache.spark.shuffle.BaseShuffleHandle;
import org.apache.spark.shuffle.ShuffleHandle;
import org.apache.spark.shuffle.sort.BypassMergeSortShuffleHandle;
import org.apache.spark.shuffle.sort.SerializedShuffleHandle;
import org.junit.jupiter.api.Test;

/** The manager with a real SparkConf and the real Celeborn 0.5.4 client's SparkShuffleManager. */
class SluiceShuffleManagerTest {
  private static final String CELEBORN = "org.apache.spark.shuffle.celeborn.SparkShuffleManager";
  private static final String SORT = "org.apache.spark.shuffle.sort.SortShuffleManager";

  private static SparkConf celebornConf(String masters) {
    return new SparkConf(false)
        .set("spark.app.id", "app-test")
        .set("spark.master", "local[1]")
        .set("spark.shuffle.manager", SluiceShuffleManager.class.getName())
        .set("spark.sluice.tier", "CELEBORN")
        .set("spark.sluice.tier.shuffleManager", CELEBORN)
        .set("spark.celeborn.master.endpoints", masters);
  }

  @Test
  void onTheDriverAnUnreachableTierBecomesSortShuffleInTheConfTheExecutorsWillGet()
      throws Exception {
    SparkConf conf = celebornConf("127.0.0.1:" + Loopback.closedPort());
    SluiceShuffleManager m = new SluiceShuffleManager(conf, true);
    try {
      assertThat(m.decision().outcome()).isEqualTo(Tier.ESS);
      assertThat(conf.get("spark.shuffle.manager")).isEqualTo(SORT);
      assertThat(conf.get("spark.sluice.tier.outcome")).isEqualTo("ESS");
      assertThat(conf.get("spark.sluice.tier.fallbackReason")).isEqualTo("TIER_UNHEALTHY");
      assertThat(conf.get("spark.sluice.tier.fallbackDetail")).contains("connection refused");
      assertThat(Long.parseLong(conf.get("spark.sluice.tier.decisionMs"))).isNotNegative();
      assertThat(m.shuffleBlockResolver().getClass().getName())
          .isEqualTo("org.apache.spark.shuffle.IndexShuffleBlockResolver");
    } finally {
      m.stop();
    }
  }

  @Test
  void onTheDriverAHealthyTierRunsTheTiersOwnManagerAndClearsAStaleReason() throws Exception {
    try (ServerSocket master = Loopback.listening()) {
      SparkConf conf =
          celebornConf("127.0.0.1:" + master.getLocalPort())
              .set(
                  "spark.sluice.tier.fallbackReason",
                  "LATER_ATTEMPT"); // e.g. copied from an earlier run's conf
      SluiceShuffleManager m = new SluiceShuffleManager(conf, true);
      try {
        assertThat(m.decision().outcome()).isEqualTo(Tier.CELEBORN);
        assertThat(conf.get("spark.shuffle.manager")).isEqualTo(CELEBORN);
        assertThat(conf.get("spark.sluice.tier.outcome")).isEqualTo("CELEBORN");
        assertThat(conf.contains("spark.sluice.tier.fallbackReason")).isFalse();
      } finally {
        m.stop();
      }
    }
  }

  @Test
  void aTierManagerThatFailsToStartOnTheDriverFallsBackInsteadOfFailingTheApplication()
      throws Exception {
    try (ServerSocket master = Loopback.listening()) {
      // Celeborn's constructor validates Spark's attempt limits (task attempt numbers must fit 16
      // bits) and throws
      SparkConf conf =
          celebornConf("127.0.0.1:" + master.getLocalPort())
              .set("spark.task.maxFailures", "100000");
      SluiceShuffleManager m = new SluiceShuffleManager(conf, true);
      try {
        assertThat(m.decision().reason()).isEqualTo(FallbackReason.TIER_MANAGER_FAILED);
        assertThat(conf.get("spark.shuffle.manager")).isEqualTo(SORT);
        assertThat(conf.get("spark.sluice.tier.fallbackDetail"))
            .startsWith(
                CELEBORN + " failed to start on the driver: java.lang.IllegalArgumentException");
      } finally {
        m.stop();
      }
    }
  }

  @Test
  void executorsTellSparksSortHandlesFromATiersHandles() throws Exception {
    assertThat(ShuffleManagers.isSortHandle(new BaseShuffleHandle<>(1, null))).isTrue();
    assertThat(ShuffleManagers.isSortHandle(new SerializedShuffleHandle<>(1, null))).isTrue();
    assertThat(ShuffleManagers.isSortHandle(new BypassMergeSortShuffleHandle<>(1, null))).isTrue();
    // Celeborn's handle extends BaseShuffleHandle: the exact class decides
    ShuffleHandle celeborn =
        (ShuffleHandle)
            Class.forName("org.apache.spark.shuffle.celeborn.CelebornShuffleHandle")
                .getConstructors()[0]
                .newInstance("app", "127.0.0.1", 1, null, 1, false, 1, null);
    assertThat(celeborn).isInstanceOf(BaseShuffleHandle.class);
    assertThat(ShuffleManagers.isSortHandle(celeborn)).isFalse();
  }

  @Test
  void anExecutorWithoutTheDriversChoiceNeverDecidesItself() throws Exception {
    SparkConf conf = new SparkConf(false).set("spark.sluice.tier", "CELEBORN");
    SluiceShuffleManager m = new SluiceShuffleManager(conf, false);
    assertThat(m.decision()).isNull();
    assertThat(conf.contains("spark.sluice.tier.outcome")).isFalse();
    ShuffleHandle celeborn =
        (ShuffleHandle)
            Class.forName("org.apache.spark.shuffle.celeborn.CelebornShuffleHandle")
                .getConstructors()[0]
                .newInstance("app", "127.0.0.1", 1, null, 1, false, 1, null);
    assertThatThrownBy(() -> m.getWriter(celeborn, 0, null, null))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage(
            "a push-tier shuffle handle reached this executor but spark.sluice.tier.shuffleManager is not set");
    assertThat(m.unregisterShuffle(1)).isFalse();
    m.stop();
  }
}
