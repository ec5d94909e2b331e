package io.sluice.throttle.ess;

import io.micrometer.core.instrument.MeterRegistry;
import java.nio.ByteBuffer;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.spark.network.shuffle.protocol.BlockTransferMessage;
import org.apache.spark.network.shuffle.protocol.RegisterExecutor;

/**
 * Counts the executors that register with this shuffle service by the shuffle manager class they
 * report ({@code ExecutorShuffleInfo.shuffleManager}): the ESS's own view of which shuffle each
 * application really runs, next to what the driver reports to tuner-service (e.g. executors of a
 * job routed to a push tier that fell back register Spark's sort shuffle manager). Meter {@code
 * sluice.ess.executor.registrations{shuffle_manager}}; at most {@value #MAX_CLASSES} distinct
 * classes are named, the rest count as {@code other}. The message itself is left untouched for the
 * real handler.
 */
final class ExecutorRegistrations {
  static final String METER = "sluice.ess.executor.registrations";
  static final int MAX_CLASSES = 32;
  private static final byte REGISTER_EXECUTOR = BlockTransferMessage.Type.REGISTER_EXECUTOR.id();

  private final MeterRegistry registry;
  private final Set<String> named = ConcurrentHashMap.newKeySet();

  ExecutorRegistrations(MeterRegistry registry) {
    this.registry = registry;
  }

  /**
   * Counts {@code body} if it is a RegisterExecutor; anything else (or a body that does not decode)
   * is ignored.
   */
  void observe(ByteBuffer body) {
    if (!body.hasRemaining() || body.get(body.position()) != REGISTER_EXECUTOR) {
      return;
    }
    String manager;
    try {
      BlockTransferMessage msg = BlockTransferMessage.Decoder.fromByteBuffer(body.duplicate());
      manager = ((RegisterExecutor) msg).executorInfo.shuffleManager;
    } catch (RuntimeException e) {
      return; // the real handler answers a malformed message as it always would
    }
    String tag = manager == null ? "unknown" : manager;
    if (!named.contains(tag)) {
      if (named.size() < MAX_CLASSES) {
        named.add(tag);
      } else {
        tag = "other";
      }
    }
    registry.counter(METER, "shuffle_manager", tag).increment();
  }
}
