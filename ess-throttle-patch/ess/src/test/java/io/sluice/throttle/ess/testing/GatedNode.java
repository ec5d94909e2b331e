package io.sluice.throttle.ess.testing;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.throttle.ess.GatedRpcHandler;
import io.sluice.throttle.gate.GateConfig;
import io.sluice.throttle.gate.PriorityMap;
import io.sluice.throttle.gate.RecordingGateEvents;
import io.sluice.throttle.gate.ThrottleGate;
import java.io.IOException;
import java.util.Map;
import org.apache.spark.network.server.OneForOneStreamManager;
import org.apache.spark.network.shuffle.ExternalBlockHandler;
import org.apache.spark.network.util.TransportConf;

/**
 * One shuffle node as the standalone ESS runs it: Spark's real {@link ExternalBlockHandler} (no
 * registered-executors DB) behind a {@link GatedRpcHandler}, in a real {@code TransportServer} on
 * loopback, with a gate ticking every {@code tick.ms} and its events and meters recorded.
 */
public final class GatedNode implements AutoCloseable {
  public final TransportConf conf;
  public final ExternalBlockHandler blockHandler;
  public final RecordingGateEvents events = new RecordingGateEvents();
  public final SimpleMeterRegistry meters;
  public final ThrottleGate gate;
  public final GatedRpcHandler handler;
  public final Ticker ticker;
  public final ShuffleServer server;

  public GatedNode(GateConfig config, PriorityMap priorities, Map<String, String> transportSettings)
      throws IOException {
    this(config, priorities, transportSettings, new SimpleMeterRegistry());
  }

  /** As above, the gate metering into {@code meters}. */
  public GatedNode(
      GateConfig config,
      PriorityMap priorities,
      Map<String, String> transportSettings,
      SimpleMeterRegistry meters)
      throws IOException {
    this.meters = meters;
    this.conf = ShuffleServer.conf(transportSettings);
    this.blockHandler = new ExternalBlockHandler(conf, null);
    this.gate =
        ThrottleGate.builder()
            .config(config)
            .priorities(priorities)
            .events(events)
            .meterRegistry(meters)
            .build();
    this.handler = new GatedRpcHandler(blockHandler, gate, config.get(GateConfig.TEST_IO_DELAY_MS));
    this.ticker = new Ticker(gate, config.get(GateConfig.TICK_MS));
    this.server = new ShuffleServer(conf, handler);
  }

  public int port() {
    return server.port();
  }

  /**
   * Streams Spark's own stream manager still holds (a leak if any remain once everything is done).
   */
  public int sparkStreams() {
    return ((OneForOneStreamManager) blockHandler.getStreamManager()).numStreamStates();
  }

  @Override
  public void close() {
    try {
      server.close();
    } finally {
      ticker.close();
      blockHandler.close();
    }
  }
}
