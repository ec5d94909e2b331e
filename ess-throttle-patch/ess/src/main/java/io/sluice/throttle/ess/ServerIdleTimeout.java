package io.sluice.throttle.ess;

import io.sluice.throttle.gate.GateConfig;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;
import org.apache.spark.network.util.JavaUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the gate's activity-aware holds inside the shuffle server's own idle timeout. Spark's
 * shuffle services (the standalone {@code ExternalShuffleService} and {@code YarnShuffleService})
 * build their transport context with {@code closeIdleConnections=true}: the server closes any
 * connection that carried no byte for its own {@code spark.shuffle.io.connectionTimeout} (default
 * {@code spark.network.timeout}, 120 s), held request or not (pinned by {@code
 * SparkIdleTimeoutContractITCase}). So {@code hold.connectionIdleMs} must stay below the server's
 * timeout as well as the clients'; the adapter knows the former and lowers the knob to it minus a
 * margin, with a warning, when it is configured (or defaults) at or above that.
 */
public final class ServerIdleTimeout {
  private static final Logger LOG = LoggerFactory.getLogger(ServerIdleTimeout.class);
  static final String CONNECTION_TIMEOUT = "spark.shuffle.io.connectionTimeout";
  static final String NETWORK_TIMEOUT = "spark.network.timeout";

  /**
   * Kept between a quiet-connection release and the timeout (queueing before the released request's
   * first byte).
   */
  static final long MARGIN_MS = 20_000;

  private ServerIdleTimeout() {}

  /**
   * The server's idle timeout in ms as Spark's TransportConf reads it (whole seconds; 120 s when
   * unset).
   */
  public static long millis(Function<String, String> conf) {
    String v = conf.apply(CONNECTION_TIMEOUT);
    if (v == null || v.isBlank()) {
      v = conf.apply(NETWORK_TIMEOUT);
    }
    if (v == null || v.isBlank()) {
      v = "120s";
    }
    return JavaUtils.timeStringAsSec(v.trim()) * 1000;
  }

  /**
   * {@code props} with {@code sluice.throttle.hold.connectionIdleMs} lowered to {@code
   * serverTimeoutMs} minus the margin (at least half the timeout) when it would reach the server's
   * timeout; unchanged otherwise (also when the knob is 0, off, or the server never closes idle
   * connections: timeout 0).
   */
  public static Map<String, String> capHold(Map<String, String> props, long serverTimeoutMs) {
    String key = GateConfig.HOLD_CONNECTION_IDLE_MS.key();
    long configured =
        GateConfig.fromMap(EssSettings.gateProperties(props))
            .get(GateConfig.HOLD_CONNECTION_IDLE_MS);
    long limit = Math.max(serverTimeoutMs / 2, serverTimeoutMs - MARGIN_MS);
    if (configured == 0 || serverTimeoutMs <= 0 || configured <= limit) {
      return props;
    }
    LOG.warn(
        "{}={} ms reaches this shuffle server's own idle timeout ({}={} ms: the server closes a connection "
            + "quiet for that long, held request or not); using {} ms",
        key,
        configured,
        CONNECTION_TIMEOUT,
        serverTimeoutMs,
        limit);
    Map<String, String> m = new LinkedHashMap<>(props);
    m.put(key, Long.toString(limit));
    return m;
  }
}
