package io.sluice.throttle.ess;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.throttle.ess.testing.GatedNode;
import io.sluice.throttle.ess.testing.Load;
import io.sluice.throttle.ess.testing.ShuffleApp;
import io.sluice.throttle.ess.testing.ShuffleServer;
import io.sluice.throttle.gate.AppInfo;
import io.sluice.throttle.gate.GateMode;
import io.sluice.throttle.gate.StaticPriorityMap;
import io.sluice.throttle.protocol.SluiceHello;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.spark.network.TransportContext;
import org.apache.spark.network.client.TransportClient;
import org.apache.spark.network.server.NoOpRpcHandler;
import org.apache.spark.network.shuffle.ExternalBlockStoreClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Someone announces the shim for an application that runs Spark's stock client (no authentication,
 * same host: the HELLO is believed on first use). The gate may now direct that app, but only on the
 * connection that said HELLO: the app's own stock clients, flooding an overloaded node, are held
 * and every fetch completes; none gets a SLEEP, which Spark's client would have failed on.
 */
class SpoofedHelloITCase {
  private static final String VICTIM = "app-stock-low";
  private static final String NEIGHBOUR = "app-light-high";
  private static final StaticPriorityMap PRIORITIES =
      new StaticPriorityMap(
          Map.of(
              VICTIM, new AppInfo(VICTIM, 1, "batch", false),
              NEIGHBOUR, new AppInfo(NEIGHBOUR, 4, "interactive", false)),
          2);

  @TempDir Path tmp;

  @Test
  void aSpoofedHelloNeverMakesTheAppsStockClientsSleep() throws Exception {
    try (GatedNode node =
            new GatedNode(
                GatedRpcHandlerITCase.overloadable(GateMode.ENFORCE),
                PRIORITIES,
                Map.of("spark.shuffle.io.serverThreads", "2"));
        TransportContext spoofer = new TransportContext(node.conf, new NoOpRpcHandler(), false)) {
      TransportClient spoof =
          spoofer.createClientFactory().createClient(ShuffleServer.HOST, node.port());
      assertThat(
              spoof.sendRpcSync(new SluiceHello(VICTIM, "x", "0.1.0").encode(), 10_000).remaining())
          .isZero();
      assertThat(node.gate.snapshot().app(VICTIM).shim()).as("believed on first use").isTrue();

      ShuffleApp victim = new ShuffleApp(tmp.resolve("victim"), VICTIM, "1", 8, 50);
      ShuffleApp neighbour = new ShuffleApp(tmp.resolve("neighbour"), NEIGHBOUR, "1", 2, 50);
      List<ExternalBlockStoreClient> clients = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        clients.add(victim.client(node.conf));
      }
      ExternalBlockStoreClient neighbourClient = neighbour.client(node.conf);
      clients.add(neighbourClient);
      try {
        victim.register(clients.get(0), node.port());
        neighbour.register(neighbourClient, node.port());
        try (Load load = new Load(victim, clients.subList(0, 4), node.port(), 3, 10, 4)) {
          // a higher-priority neighbour keeps fetching, so the victim's share is cut while the node
          // is ABNORMAL
          for (int i = 0; i < 10; i++) {
            assertThat(
                    neighbour
                        .fetchAndWait(neighbourClient, node.port(), neighbour.blocks(i * 5, 5))
                        .allGood())
                .isTrue();
          }
          load.join(60);
          assertThat(load.errors()).as("a SLEEP to a stock client fails its fetch").isEmpty();
          assertThat(load.bad()).isEmpty();
        }
        assertThat(node.events.events("state"))
            .anyMatch(e -> e.startsWith("state NORMAL->ABNORMAL"));
        node.gate.tick();
        assertThat(node.gate.snapshot().app(VICTIM).heldTotal()).as("held instead").isPositive();
        assertThat(node.events.events("directive")).isEmpty();
      } finally {
        clients.forEach(ExternalBlockStoreClient::close);
        spoof.close();
      }
    }
  }
}
