package io.sluice.throttle.ess;

import io.sluice.throttle.gate.ThrottleGate;
import java.util.Objects;
import org.apache.spark.SecurityManager;
import org.apache.spark.SparkConf;
import org.apache.spark.deploy.ExternalShuffleService;
import org.apache.spark.network.shuffle.ExternalBlockHandler;
import org.apache.spark.network.util.TransportConf;

/**
 * Spark's standalone External Shuffle Service with the gate in front of its block handler.
 *
 * <p>{@link #newShuffleBlockHandler} runs inside the superclass constructor, before any field of
 * this class is assigned, so the gate reaches it through a thread-local hand-off set around the
 * constructor call ({@link #create}); the stock handler is built by the superclass's own method
 * (registered-executors DB included) and wrapped.
 */
public class SluiceExternalShuffleService extends ExternalShuffleService {
  private static final ThreadLocal<Wiring> HANDOFF = new ThreadLocal<>();

  /** What the constructor needs before it can have fields. */
  private record Wiring(ThrottleGate gate, long ioDelayMillis) {}

  private SluiceExternalShuffleService(SparkConf conf, SecurityManager securityManager) {
    super(conf, securityManager);
  }

  /** A service whose block handler is gated by {@code gate}. */
  public static SluiceExternalShuffleService create(
      SparkConf conf, SecurityManager securityManager, ThrottleGate gate, long ioDelayMillis) {
    HANDOFF.set(new Wiring(Objects.requireNonNull(gate, "gate"), ioDelayMillis));
    try {
      return new SluiceExternalShuffleService(conf, securityManager);
    } finally {
      HANDOFF.remove();
    }
  }

  @Override
  public ExternalBlockHandler newShuffleBlockHandler(TransportConf conf) {
    ExternalBlockHandler stock = super.newShuffleBlockHandler(conf);
    Wiring w = HANDOFF.get();
    if (w == null) {
      throw new IllegalStateException(
          "SluiceExternalShuffleService must be built with create(...)");
    }
    return new GatedExternalBlockHandler(stock, w.gate(), w.ioDelayMillis());
  }

  /** The gated handler (for tests and the metrics endpoint). */
  public GatedRpcHandler gatedHandler() {
    return ((GatedExternalBlockHandler) getBlockHandler()).gated();
  }
}
