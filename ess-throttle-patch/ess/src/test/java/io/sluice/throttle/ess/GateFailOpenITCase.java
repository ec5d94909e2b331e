package io.sluice.throttle.ess;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.throttle.ess.testing.Await;
import io.sluice.throttle.ess.testing.BlockCheck;
import io.sluice.throttle.ess.testing.GatedNode;
import io.sluice.throttle.ess.testing.ShuffleApp;
import io.sluice.throttle.gate.GateConfig;
import io.sluice.throttle.gate.StaticPriorityMap;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.spark.network.shuffle.ExternalBlockStoreClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An exception inside the gate never fails a fetch: on Spark's real TransportServer path, with a
 * gate whose every decision throws, Spark's own client (no retries) gets every block intact, and
 * each failure is counted.
 */
class GateFailOpenITCase {
  @TempDir Path tmp;

  /**
   * A registry that cannot create the gate's decision counters: the gate's onFetch throws on every
   * request.
   */
  private static final class FailingDecisions extends SimpleMeterRegistry {
    @Override
    protected Counter newCounter(Meter.Id id) {
      if (id.getName().equals("sluice.throttle.decisions")) {
        throw new IllegalStateException("injected: decision counter unavailable");
      }
      return super.newCounter(id);
    }
  }

  @Test
  void aGateThatThrowsServesEveryRequestUngatedAndCountsIt() throws Exception {
    try (GatedNode node =
        new GatedNode(
            GateConfig.defaults(),
            StaticPriorityMap.allDefault(2),
            Map.of("spark.shuffle.io.serverThreads", "2"),
            new FailingDecisions())) {
      ShuffleApp app = new ShuffleApp(tmp.resolve("app"), "app-failing-gate", "1", 4, 30);
      ExternalBlockStoreClient client = app.client(node.conf);
      try {
        app.register(client, node.port());
        List<BlockCheck> checks = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
          checks.add(app.fetchAndWait(client, node.port(), app.blocks(i * 20, 20)));
        }
        assertThat(checks).allSatisfy(c -> assertThat(c.allGood()).as(c.toString()).isTrue());
        assertThat(
                node.meters
                    .get("sluice.throttle.failopen")
                    .tag("reason", "gate-error")
                    .counter()
                    .count())
            .isEqualTo(6);
        Await.until(
            () -> node.sparkStreams() == 0,
            Duration.ofSeconds(10),
            () -> "Spark's streams finished");
        assertThat(node.handler.trackedStreams()).as("ungated requests are not followed").isZero();
        assertThat(node.handler.parkedRequests()).isZero();
      } finally {
        client.close();
      }
    }
  }
}
