package io.sluice.throttle.ess;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.throttle.ess.testing.ShuffleServer;
import io.sluice.throttle.gate.GateConfig;
import io.sluice.throttle.gate.GateSnapshot;
import io.sluice.throttle.gate.StaticPriorityMap;
import io.sluice.throttle.gate.ThrottleGate;
import io.sluice.throttle.protocol.SluiceHello;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import org.apache.spark.network.TransportContext;
import org.apache.spark.network.client.TransportClient;
import org.apache.spark.network.client.TransportClientFactory;
import org.apache.spark.network.crypto.AuthClientBootstrap;
import org.apache.spark.network.crypto.AuthServerBootstrap;
import org.apache.spark.network.sasl.SecretKeyHolder;
import org.apache.spark.network.sasl.ShuffleSecretManager;
import org.apache.spark.network.server.TransportServer;
import org.apache.spark.network.shuffle.ExternalBlockHandler;
import org.apache.spark.network.util.TransportConf;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * HELLO under {@code spark.authenticate=true}: Spark's own auth bootstrap on a real {@code
 * TransportServer} in front of the gated handler, each application with its own secret (as the YARN
 * shuffle service keeps them), and Spark's own client factory authenticating as one application. A
 * HELLO is believed only for the application the connection proved; a spoofed one is refused,
 * counted, and marks nothing.
 */
class ShimHelloAuthITCase {
  private static final String HONEST = "app-honest";
  private static final String VICTIM = "app-victim";

  private TransportConf conf;
  private ExternalBlockHandler blockHandler;
  private SimpleMeterRegistry meters;
  private ThrottleGate gate;
  private TransportContext serverContext;
  private TransportServer server;
  private TransportContext clientContext;

  @BeforeEach
  void start() throws Exception {
    conf = ShuffleServer.conf(Map.of());
    ShuffleSecretManager secrets = new ShuffleSecretManager();
    secrets.registerApp(HONEST, "secret-of-honest");
    secrets.registerApp(VICTIM, "secret-of-victim");
    blockHandler = new ExternalBlockHandler(conf, null);
    meters = new SimpleMeterRegistry();
    gate =
        ThrottleGate.builder()
            .config(GateConfig.defaults())
            .priorities(new StaticPriorityMap(Map.of(), 2))
            .meterRegistry(meters)
            .build();
    serverContext = new TransportContext(conf, new GatedRpcHandler(blockHandler, gate, 0), false);
    server =
        serverContext.createServer(
            ShuffleServer.HOST, 0, List.of(new AuthServerBootstrap(conf, secrets)));
    clientContext =
        new TransportContext(conf, new org.apache.spark.network.server.NoOpRpcHandler(), false);
  }

  @AfterEach
  void stop() {
    server.close();
    serverContext.close();
    clientContext.close();
    blockHandler.close();
  }

  /**
   * A connection that authenticated with {@code appId}'s secret, made by Spark's own client
   * factory.
   */
  private TransportClient connectAs(String appId, String secret) throws Exception {
    SecretKeyHolder holder =
        new SecretKeyHolder() {
          @Override
          public String getSaslUser(String id) {
            return id;
          }

          @Override
          public String getSecretKey(String id) {
            return secret;
          }
        };
    TransportClientFactory factory =
        clientContext.createClientFactory(List.of(new AuthClientBootstrap(conf, appId, holder)));
    return factory.createClient(ShuffleServer.HOST, server.getPort());
  }

  private double hellos(String result, String reason) {
    var c = meters.find(ShimHellos.METER).tags("result", result, "reason", reason).counter();
    return c == null ? 0 : c.count();
  }

  private static boolean shim(GateSnapshot s, String appId) {
    GateSnapshot.App a = s.app(appId);
    return a != null && a.shim();
  }

  @Test
  void aHelloForAnotherAppThanTheAuthenticatedOneIsRefusedAndMarksNothing() throws Exception {
    TransportClient honest = connectAs(HONEST, "secret-of-honest");

    ByteBuffer spoof = new SluiceHello(VICTIM, "1", "0.1.0").encode();
    assertThatThrownBy(() -> honest.sendRpcSync(spoof, 10_000))
        .hasStackTraceContaining(
            "Sluice HELLO for app app-victim refused (identity-mismatch): "
                + "the connection authenticated as app-honest");
    assertThat(shim(gate.snapshot(), VICTIM)).isFalse();
    assertThat(hellos("refused", "identity-mismatch")).isEqualTo(1);

    ByteBuffer own = new SluiceHello(HONEST, "1", "0.1.0").encode();
    assertThat(honest.sendRpcSync(own, 10_000).remaining()).isZero();
    assertThat(shim(gate.snapshot(), HONEST)).isTrue();
    assertThat(hellos("accepted", "none")).isEqualTo(1);
    assertThat(honest.isActive())
        .as("a refusal answers the RPC, it does not drop the connection")
        .isTrue();
  }

  @Test
  void aConnectionWithTheWrongSecretNeverReachesTheGate() throws Exception {
    assertThatThrownBy(() -> connectAs(VICTIM, "guessed"));
    assertThat(hellos("accepted", "none") + hellos("refused", "identity-mismatch")).isZero();
    assertThat(shim(gate.snapshot(), VICTIM)).isFalse();
  }
}
