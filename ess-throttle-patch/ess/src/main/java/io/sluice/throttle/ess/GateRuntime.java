package io.sluice.throttle.ess;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.sluice.throttle.gate.CachingPriorityMap;
import io.sluice.throttle.gate.GateConfig;
import io.sluice.throttle.gate.GateEvents;
import io.sluice.throttle.gate.HttpPrioritySource;
import io.sluice.throttle.gate.LayeredPrioritySource;
import io.sluice.throttle.gate.NodeState;
import io.sluice.throttle.gate.PriorityMap;
import io.sluice.throttle.gate.PrioritySource;
import io.sluice.throttle.gate.StaticPriorityMap;
import io.sluice.throttle.gate.SystemClock;
import io.sluice.throttle.gate.ThrottleGate;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Everything a gate needs around it on an ESS host: the gate built from configuration, its priority
 * map (pulled from the tuner-service when {@code sluice.throttle.priority.url} is set), the single
 * scheduler thread that calls {@link ThrottleGate#tick()} (node state, releases, idle cleanup of
 * applications: a standalone ESS is never told an application ended), the Prometheus registry and
 * HTTP endpoint, and the Kafka event publisher. Any of the optional parts that cannot start (a busy
 * port) is logged and left out: the ESS itself always runs.
 */
public final class GateRuntime implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(GateRuntime.class);

  private final GateConfig config;
  private final EssSettings settings;
  private final PrometheusMeterRegistry registry;
  private final CachingPriorityMap cachedPriorities;
  private final PrioritySource prioritySource;
  private final KafkaGateEvents kafka;
  private final ThrottleGate gate;
  private final ScheduledExecutorService ticker;
  private GateHttpEndpoint http;

  private GateRuntime(Map<String, String> props, PrioritySource fallback) {
    this.settings = EssSettings.fromMap(props);
    this.config = GateConfig.fromMap(EssSettings.gateProperties(props));
    this.registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    String url = config.get(GateConfig.PRIORITY_URL);
    PrioritySource source =
        url.isEmpty()
            ? fallback
            : fallback == null
                ? HttpPrioritySource.fromConfig(config)
                : new LayeredPrioritySource(HttpPrioritySource.fromConfig(config), fallback);
    PriorityMap priorities;
    if (source == null) {
      this.cachedPriorities = null;
      priorities = StaticPriorityMap.allDefault(config.defaultPriority());
    } else {
      this.cachedPriorities =
          CachingPriorityMap.fromConfig(config, source, SystemClock.INSTANCE, null).start();
      priorities = cachedPriorities;
    }
    this.prioritySource = source;
    this.kafka = settings.kafkaBootstrap().isEmpty() ? null : kafkaOrNull(settings);
    if (kafka != null) {
      FunctionCounter.builder("sluice.throttle.events.dropped", kafka, KafkaGateEvents::dropped)
          .description("Gate events not published (queue full or Kafka unavailable)")
          .register(registry);
      FunctionCounter.builder("sluice.throttle.events.sent", kafka, KafkaGateEvents::sent)
          .description("Gate events acknowledged by Kafka")
          .register(registry);
    }
    this.gate =
        ThrottleGate.builder()
            .config(config)
            .priorities(priorities)
            .events(new LoggedEvents(kafka != null ? kafka : GateEvents.NONE))
            .meterRegistry(registry)
            .build();
    this.ticker =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "sluice-gate-tick");
              t.setDaemon(true);
              return t;
            });
    long tick = config.get(GateConfig.TICK_MS);
    ticker.scheduleWithFixedDelay(this::tick, tick, tick, TimeUnit.MILLISECONDS);
  }

  private static KafkaGateEvents kafkaOrNull(EssSettings settings) {
    try {
      return new KafkaGateEvents(
          settings.kafkaBootstrap(),
          settings.kafkaTopic(),
          settings.cluster(),
          settings.node(),
          settings.kafkaQueue());
    } catch (RuntimeException e) {
      LOG.warn(
          "Sluice gate events not published: Kafka producer for {} not created ({}); the ESS runs without them",
          settings.kafkaBootstrap(),
          e.toString());
      return null;
    }
  }

  /** Starts a gate and its surroundings from {@code sluice.throttle.*} properties. */
  public static GateRuntime start(Map<String, String> props) {
    return start(props, null);
  }

  /**
   * Starts a gate whose priorities come from the tuner-service ({@code
   * sluice.throttle.priority.url}, when set) over {@code fallback} (e.g. the YARN ResourceManager's
   * application priorities; null: none). Either source down fails open to the default priority.
   */
  public static GateRuntime start(Map<String, String> props, PrioritySource fallback) {
    GateRuntime rt = new GateRuntime(props, fallback);
    rt.startHttp();
    LOG.info(
        "Sluice throttle gate started: mode={}, http={}, kafka={}, priorities={} ({})",
        rt.config.mode(),
        rt.http != null ? rt.settings.httpHost() + ":" + rt.http.port() : "off",
        rt.kafka != null ? rt.settings.kafkaBootstrap() : "off",
        rt.prioritySource != null ? rt.prioritySource : "default only",
        rt.config);
    return rt;
  }

  private void startHttp() {
    int port = settings.httpPort();
    if (port < 0) {
      return;
    }
    try {
      http = new GateHttpEndpoint(settings.httpHost(), port, registry, gate::snapshot);
    } catch (IOException | RuntimeException e) {
      LOG.warn(
          "Sluice gate metrics endpoint not started on {}:{} ({}); the ESS runs without it",
          settings.httpHost(),
          port,
          e.toString());
    }
  }

  private void tick() {
    try {
      gate.tick();
    } catch (Throwable t) {
      LOG.error("gate tick failed", t); // keep ticking: a held request must always be released
    }
  }

  public ThrottleGate gate() {
    return gate;
  }

  public GateConfig config() {
    return config;
  }

  /** Test only: the emulated disk delay per chunk. */
  public long ioDelayMillis() {
    return config.get(GateConfig.TEST_IO_DELAY_MS);
  }

  public PrometheusMeterRegistry registry() {
    return registry;
  }

  /** The metrics endpoint's port, or -1 when it is off or did not start. */
  public int httpPort() {
    return http != null ? http.port() : -1;
  }

  /** The event publisher, or null when no Kafka is configured. */
  public KafkaGateEvents kafka() {
    return kafka;
  }

  @Override
  public void close() {
    ticker.shutdownNow();
    if (http != null) {
      http.close();
    }
    if (cachedPriorities != null) {
      cachedPriorities.close();
    }
    if (kafka != null) {
      kafka.close();
    }
    registry.close();
  }

  /** Logs node-level events (state changes, fail-open) and forwards everything. */
  private static final class LoggedEvents implements GateEvents {
    private final GateEvents next;

    LoggedEvents(GateEvents next) {
      this.next = next;
    }

    @Override
    public void stateChanged(NodeState from, NodeState to, long p99Millis, long samples) {
      LOG.info(
          "Sluice gate: node {} -> {} (p99 {} ms over {} samples)", from, to, p99Millis, samples);
      next.stateChanged(from, to, p99Millis, samples);
    }

    @Override
    public void held(String appId, int priority, int blocks) {
      next.held(appId, priority, blocks);
    }

    @Override
    public void released(String appId, int priority, long heldMillis, ReleaseReason reason) {
      next.released(appId, priority, heldMillis, reason);
    }

    @Override
    public void directive(String appId, int priority, long sleepMillis) {
      next.directive(appId, priority, sleepMillis);
    }

    @Override
    public void degraded(String what, String detail) {
      LOG.warn("Sluice gate degraded: {} ({})", what, detail);
      next.degraded(what, detail);
    }
  }
}
