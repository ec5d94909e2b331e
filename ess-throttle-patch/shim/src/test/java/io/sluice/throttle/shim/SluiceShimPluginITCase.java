package io.sluice.throttle.shim;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.throttle.ess.testing.Await;
import io.sluice.throttle.ess.testing.GatedNode;
import io.sluice.throttle.gate.GateConfig;
import io.sluice.throttle.gate.GateSnapshot;
import io.sluice.throttle.gate.StaticPriorityMap;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkEnv;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.network.shuffle.BlockStoreClient;
import org.apache.spark.network.shuffle.ExternalBlockStoreClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import scala.Tuple2;

/**
 * The plugin inside real Spark 3.5.7 (in this JVM, {@code local[2]}, external shuffle service
 * enabled and pointing at a gated shuffle server): {@code spark.plugins} is all it takes for the
 * executor's block manager to get the sleep-aware shuffle client and for the gate to learn, from
 * HELLO, that the app runs the shim.
 */
class SluiceShimPluginITCase {
  @TempDir Path tmp;

  @Test
  void sparkPluginsConfInstallsTheHookAndAnnouncesTheApp() throws Exception {
    try (GatedNode node =
        new GatedNode(GateConfig.defaults(), StaticPriorityMap.allDefault(2), Map.of())) {
      SparkConf conf =
          new SparkConf()
              .setMaster("local[2]")
              .setAppName("sluice-shim-install")
              .set("spark.plugins", SluiceShimPlugin.class.getName())
              .set("spark.shuffle.service.enabled", "true")
              .set("spark.shuffle.service.port", Integer.toString(node.port()))
              .set("spark.driver.host", "127.0.0.1")
              .set("spark.driver.bindAddress", "127.0.0.1")
              .set("spark.ui.enabled", "false")
              .set("spark.local.dir", tmp.toString());
      JavaSparkContext sc = new JavaSparkContext(conf);
      try {
        String appId = sc.sc().applicationId();
        BlockStoreClient client = SparkEnv.get().blockManager().blockStoreClient();
        assertThat(client).isInstanceOf(SleepAwareBlockStoreClient.class);
        assertThat(((SleepAwareBlockStoreClient) client).delegate())
            .isExactlyInstanceOf(ExternalBlockStoreClient.class);

        Await.until(
            () -> {
              GateSnapshot.App a = node.gate.snapshot().app(appId);
              return a != null && a.shim();
            },
            Duration.ofSeconds(30),
            () -> "HELLO from " + appId + " reaching the gate");

        // A shuffle still runs (here its blocks are local: no fetch goes through the service in
        // local mode).
        List<Tuple2<Integer, Integer>> counts =
            sc.parallelize(IntStream.range(0, 1000).boxed().toList(), 4)
                .mapToPair(x -> new Tuple2<>(x % 7, 1))
                .reduceByKey(Integer::sum)
                .collect();
        assertThat(counts).hasSize(7);
      } finally {
        sc.stop();
      }
    }
  }
}
