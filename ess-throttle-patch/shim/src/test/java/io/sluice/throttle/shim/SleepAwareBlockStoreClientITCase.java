package io.sluice.throttle.shim;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.throttle.ess.testing.Await;
import io.sluice.throttle.ess.testing.GatedNode;
import io.sluice.throttle.ess.testing.Load;
import io.sluice.throttle.ess.testing.ShuffleApp;
import io.sluice.throttle.ess.testing.ShuffleServer;
import io.sluice.throttle.gate.AppInfo;
import io.sluice.throttle.gate.GateConfig;
import io.sluice.throttle.gate.StaticPriorityMap;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.apache.spark.network.shuffle.ExternalBlockStoreClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shim against the gate in Spark's real shuffle server (the ESS module's fixture): a
 * shim-wrapped {@link ExternalBlockStoreClient} (one with {@code spark.shuffle.io.maxRetries=0},
 * one through Spark's retrying transferor) of a heavy app on an overloaded node is sent SLEEP
 * directives, sleeps, re-issues, and every block arrives once with the right bytes; nothing fails.
 */
class SleepAwareBlockStoreClientITCase {
  private static final String STOCK = "app-stock-heavy";
  private static final String SHIM = "app-shim-heavy";
  private static final StaticPriorityMap PRIORITIES =
      new StaticPriorityMap(
          Map.of(
              STOCK, new AppInfo(STOCK, 1, null, false), SHIM, new AppInfo(SHIM, 1, null, false)),
          2);

  @TempDir Path tmp;

  @Test
  void shimAppSleepsOnDirectivesAndCompletesEveryBlockWithoutFailure() throws Exception {
    GateConfig config =
        GateConfig.fromMap(
            Map.ofEntries(
                Map.entry("sluice.throttle.test.ioDelayMs", "20"),
                // these tests exercise the hold mechanics on the first signal and the per-thread
                // delay
                Map.entry("sluice.throttle.signal", "SERVICE_TIME"),
                Map.entry("sluice.throttle.test.ioModel", "PER_THREAD"),
                Map.entry("sluice.throttle.abnormal.p99Ms", "300"),
                Map.entry("sluice.throttle.normal.p99Ms", "150"),
                Map.entry("sluice.throttle.window.ms", "3000"),
                Map.entry("sluice.throttle.window.minSamples", "3"),
                Map.entry("sluice.throttle.tick.ms", "20"),
                Map.entry("sluice.throttle.hold.maxMs", "10000"),
                Map.entry("sluice.throttle.budget.minBlocks", "10"),
                Map.entry("sluice.throttle.budget.fraction", "0.25"),
                Map.entry("sluice.throttle.sleep.minMs", "100"),
                Map.entry("sluice.throttle.sleep.maxMs", "400")));
    ScheduledExecutorService shimThread = Executors.newSingleThreadScheduledExecutor();
    try (GatedNode node =
        new GatedNode(config, PRIORITIES, Map.of("spark.shuffle.io.serverThreads", "2"))) {
      ShuffleApp stock = new ShuffleApp(tmp.resolve("stock"), STOCK, "1", 8, 50);
      ShuffleApp shim = new ShuffleApp(tmp.resolve("shim"), SHIM, "1", 8, 50);
      List<ExternalBlockStoreClient> stockClients = new ArrayList<>();
      List<SleepAwareBlockStoreClient> shimClients = new ArrayList<>();
      try {
        for (int i = 0; i < 3; i++) {
          stockClients.add(stock.client(node.conf));
        }
        stock.register(stockClients.get(0), node.port());
        for (int i = 0; i < 2; i++) {
          // executor 0 fetches with maxRetries=0 (any retry would fail), executor 1 with Spark's
          // default of 3, i.e.
          // through RetryingBlockTransferor as on a real executor
          ExternalBlockStoreClient executorClient =
              shim.client(
                  i == 0
                      ? node.conf
                      : ShuffleServer.conf(Map.of("spark.shuffle.io.maxRetries", "3")));
          if (i == 0) {
            shim.register(executorClient, node.port());
          }
          HelloAnnouncer hello =
              new HelloAnnouncer(executorClient, Integer.toString(i), shimThread);
          shimClients.add(
              new SleepAwareBlockStoreClient(
                  executorClient,
                  ShimSettings.defaults(),
                  shimThread,
                  () -> new SleepBudget(60_000),
                  hello));
        }
        try (Load stockLoad = new Load(stock, stockClients, node.port(), 3, 10, 4);
            Load shimLoad = new Load(shim, shimClients, node.port(), 3, 10, 4)) {
          stockLoad.join(90);
          shimLoad.join(90);
          assertThat(shimLoad.errors()).isEmpty();
          assertThat(shimLoad.checks()).hasSize(2 * 3 * 4);
          assertThat(shimLoad.bad())
              .as("shim requests with a failed, missing or wrong block")
              .isEmpty();
          assertThat(stockLoad.errors()).isEmpty();
          assertThat(stockLoad.bad())
              .as("stock requests with a failed, missing or wrong block")
              .isEmpty();
        }

        node.gate.tick();
        assertThat(node.gate.snapshot().app(SHIM).shim())
            .as("the gate learned the shim from HELLO")
            .isTrue();
        assertThat(node.gate.snapshot().app(STOCK).shim()).isFalse();
        assertThat(node.events.events("directive"))
            .as("directives sent")
            .isNotEmpty()
            .allMatch(e -> e.startsWith("directive " + SHIM + " "));
        long directives =
            shimClients.stream().mapToLong(SleepAwareBlockStoreClient::directives).sum();
        long reissued =
            shimClients.stream().mapToLong(SleepAwareBlockStoreClient::reissuedBlocks).sum();
        assertThat(directives)
            .as("directives the shim honoured")
            .isEqualTo(node.gate.snapshot().app(SHIM).directives());
        assertThat(reissued).isGreaterThanOrEqualTo(directives);
        assertThat(shimClients.stream().mapToLong(SleepAwareBlockStoreClient::sleptMillis).sum())
            .isPositive();
        Await.until(
            () -> node.handler.trackedStreams() == 0 && node.gate.heldCount() == 0,
            Duration.ofSeconds(15),
            () -> "everything finished");
      } finally {
        stockClients.forEach(ExternalBlockStoreClient::close);
        shimClients.forEach(SleepAwareBlockStoreClient::close);
        shimThread.shutdownNow();
      }
    }
  }
}
