package io.sluice.throttle.yarn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.apache.spark.network.TransportContext;
import org.apache.spark.network.server.NoOpRpcHandler;
import org.apache.spark.network.server.RpcHandler;
import org.apache.spark.network.server.TransportServer;
import org.apache.spark.network.util.MapConfigProvider;
import org.apache.spark.network.util.TransportConf;
import org.junit.jupiter.api.Test;

/** The hook against a real Spark TransportServer (the field names are Spark 3.5's). */
class ServerHookTest {
  @Test
  void replacesTheHandlerTheServerGivesNewConnections() throws Exception {
    RpcHandler stock = new NoOpRpcHandler();
    RpcHandler other = new NoOpRpcHandler();
    TransportConf conf = new TransportConf("shuffle", MapConfigProvider.EMPTY);
    try (TransportContext ctx = new TransportContext(conf, stock);
        TransportServer server = ctx.createServer("127.0.0.1", 0, List.of())) {
      ServerHook hook = ServerHook.SPARK_3_5;
      assertThat(hook.handler(server)).isSameAs(stock);
      hook.replace(server, stock, other);
      assertThat(hook.handler(server)).isSameAs(other);
      // only from what is there: a second swap from the stale handler is refused and changes
      // nothing
      assertThatThrownBy(() -> hook.replace(server, stock, new NoOpRpcHandler()))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("appRpcHandler");
      assertThat(hook.handler(server)).isSameAs(other);
    }
  }

  @Test
  void aRenamedFieldIsAReflectiveFailureNotACrash() throws Exception {
    TransportConf conf = new TransportConf("shuffle", MapConfigProvider.EMPTY);
    try (TransportContext ctx = new TransportContext(conf, new NoOpRpcHandler());
        TransportServer server = ctx.createServer("127.0.0.1", 0, List.of())) {
      assertThatThrownBy(
              () -> new ServerHook("shuffleServer", "rpcHandlerOfAFutureSpark").handler(server))
          .isInstanceOf(NoSuchFieldException.class)
          .hasMessageContaining("rpcHandlerOfAFutureSpark");
    }
  }
}
