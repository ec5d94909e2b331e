package io.sluice.throttle.yarn;

import java.lang.reflect.Field;
import org.apache.spark.network.server.RpcHandler;
import org.apache.spark.network.server.TransportServer;
import org.apache.spark.network.yarn.YarnShuffleService;

/**
 * Where the YARN shuffle service keeps the RPC handler its server hands to every new connection,
 * and how to replace it.
 *
 * <p>{@code YarnShuffleService} builds its block handler and {@code TransportServer} inline in
 * {@code serviceInit} and offers no factory to override, so the only way in is the server's own
 * field: {@code TransportServer} reads {@code appRpcHandler} each time a channel's pipeline is
 * initialised, hence replacing it before the NodeManager sends any work gates every connection.
 * Both field names are Spark internals (3.5: {@code YarnShuffleService.shuffleServer}, {@code
 * TransportServer.appRpcHandler}); when a Spark release renames them the hook fails here, loudly,
 * and the service degrades to monitor-only instead of breaking the NodeManager.
 */
public class ServerHook {
  /** The fields of Spark 3.5's YarnShuffleService and TransportServer. */
  public static final ServerHook SPARK_3_5 = new ServerHook("shuffleServer", "appRpcHandler");

  private final String serverField;
  private final String handlerField;

  public ServerHook(String serverField, String handlerField) {
    this.serverField = serverField;
    this.handlerField = handlerField;
  }

  /** The service's running server, or null if it has none (its init failed and was only noted). */
  public TransportServer server(YarnShuffleService service) throws ReflectiveOperationException {
    return (TransportServer) field(YarnShuffleService.class, serverField).get(service);
  }

  /** The handler the server gives new connections. */
  public RpcHandler handler(TransportServer server) throws ReflectiveOperationException {
    return (RpcHandler) field(TransportServer.class, handlerField).get(server);
  }

  /**
   * Puts {@code replacement} where {@code expected} is; fails if the field holds anything else
   * (someone else swapped it) or does not hold {@code replacement} afterwards.
   */
  public void replace(TransportServer server, RpcHandler expected, RpcHandler replacement)
      throws ReflectiveOperationException {
    Field f = field(TransportServer.class, handlerField);
    synchronized (server) {
      Object current = f.get(server);
      if (current != expected) {
        throw new IllegalStateException(
            "TransportServer."
                + handlerField
                + " is "
                + describe(current)
                + ", expected "
                + describe(expected));
      }
      f.set(server, replacement);
      if (f.get(server) != replacement) {
        throw new IllegalStateException(
            "TransportServer." + handlerField + " did not take the new handler");
      }
    }
  }

  private static Field field(Class<?> owner, String name) throws NoSuchFieldException {
    Field f = owner.getDeclaredField(name);
    f.setAccessible(true);
    return f;
  }

  static String describe(Object o) {
    return o == null ? "null" : o.getClass().getName();
  }

  @Override
  public String toString() {
    return "YarnShuffleService." + serverField + " -> TransportServer." + handlerField;
  }
}
