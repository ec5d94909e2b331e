package io.sluice.throttle.yarn;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.throttle.ess.EssSettings;
import io.sluice.throttle.ess.GateRuntime;
import io.sluice.throttle.ess.GatedRpcHandler;
import io.sluice.throttle.ess.ServerIdleTimeout;
import io.sluice.throttle.gate.GateConfig;
import io.sluice.throttle.gate.GateMode;
import io.sluice.throttle.gate.PrioritySource;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.server.api.ApplicationInitializationContext;
import org.apache.hadoop.yarn.server.api.ApplicationTerminationContext;
import org.apache.spark.network.server.RpcHandler;
import org.apache.spark.network.server.TransportServer;
import org.apache.spark.network.yarn.YarnShuffleService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Spark's YARN shuffle service (the NodeManager aux service {@code spark_shuffle}) with the
 * throttle gate in front of its block handler. Configure {@code
 * yarn.nodemanager.aux-services.spark_shuffle.class} with this class; the gate's settings are
 * {@code spark.sluice.throttle.*} keys in yarn-site.xml (see README).
 *
 * <p>After Spark's own {@code serviceInit} has started the shuffle server, the server's RPC handler
 * is swapped for a {@link GatedRpcHandler} around it ({@link ServerHook}) and a self-check proves
 * that a new connection reaches the gate ({@link SelfCheck}). If any of that fails the original
 * handler stays (or is put back), the gate runs MONITOR_ONLY, and the failure is logged, shown by
 * the gauge {@code sluice.throttle.yarn.hook.installed} = 0 and sent as a gate event {@code
 * degraded}: the NodeManager and every application keep working exactly as with the stock service.
 *
 * <p>YARN tells the service when an application ends ({@link #stopApplication}); the gate forgets
 * it then.
 */
public class SluiceYarnShuffleService extends YarnShuffleService {
  private static final Logger LOG = LoggerFactory.getLogger(SluiceYarnShuffleService.class);

  private final AtomicLong appsInitialized = new AtomicLong();
  private final AtomicLong appsStopped = new AtomicLong();
  private volatile GateRuntime runtime;
  private volatile HookStatus status = HookStatus.degraded("not started");

  /**
   * The hook into Spark's internals; a subclass may point it elsewhere (another Spark release,
   * tests).
   */
  protected ServerHook serverHook() {
    return ServerHook.SPARK_3_5;
  }

  @Override
  protected void serviceInit(Configuration conf) throws Exception {
    super.serviceInit(conf);
    try {
      hookIn(
          getConfig()); // Spark's configuration: the NM's plus the service's spark-shuffle-site.xml
      // overlay
    } catch (RuntimeException | LinkageError e) {
      // never take the NodeManager down for the gate: the stock service is already serving
      LOG.error("Sluice gate could not start; the shuffle service runs without it", e);
      status = HookStatus.degraded("gate did not start: " + e);
    }
  }

  private void hookIn(Configuration conf) {
    Map<String, String> props = YarnSettings.collect(conf);
    YarnSettings settings = YarnSettings.fromMap(props);
    Map<String, String> gateProps =
        ServerIdleTimeout.capHold(
            YarnSettings.withoutYarnKeys(props), ServerIdleTimeout.millis(conf::get));
    ServerHook hook = serverHook();

    TransportServer server = null;
    RpcHandler stock = null;
    String failure;
    try {
      server = hook.server(this);
      stock = server == null ? null : hook.handler(server);
      failure =
          server == null
              ? "the shuffle service has no server (its own initialisation failed)"
              : stock == null ? "the shuffle server has no RPC handler" : null;
    } catch (ReflectiveOperationException | RuntimeException e) {
      failure = "cannot reach " + hook + ": " + e;
    }

    if (failure == null) {
      GateRuntime rt = GateRuntime.start(gateProps, rmPriorities(conf, settings));
      GatedRpcHandler gated = new GatedRpcHandler(stock, rt.gate(), rt.ioDelayMillis());
      String detail = null;
      try {
        hook.replace(server, stock, gated);
        if (conf.getBoolean("spark.authenticate", false)) {
          detail =
              "handler read back; HELLO round trip skipped (spark.authenticate: the check has no app secret)";
        } else {
          failure = SelfCheck.helloRoundTrip(server.getPort(), settings.selfCheckTimeoutMillis());
          rt.gate().appEnded(SelfCheck.APP_ID);
          detail =
              "handler read back; HELLO round trip through port "
                  + server.getPort()
                  + " answered by the gate";
        }
        if (failure != null) {
          hook.replace(server, gated, stock);
        }
      } catch (ReflectiveOperationException | RuntimeException e) {
        failure = "swapping the handler via " + hook + " failed: " + e;
      }
      if (failure == null) {
        runtime = rt;
        status = HookStatus.installed(rt.config().mode(), detail);
        LOG.info(
            "Sluice gate in the shuffle path ({}): mode {}, {}", hook, rt.config().mode(), detail);
      } else {
        rt.close();
      }
    }
    if (failure != null) {
      Map<String, String> monitorOnly = new LinkedHashMap<>(gateProps);
      monitorOnly.put(GateConfig.MODE.key(), GateMode.MONITOR_ONLY.name());
      runtime = GateRuntime.start(monitorOnly, rmPriorities(conf, settings));
      status = HookStatus.degraded(failure);
      LOG.error(
          "Sluice gate NOT in the shuffle path, degraded to MONITOR_ONLY: {}. Fetches are served by Spark's "
              + "stock handler.",
          failure);
      if (runtime.kafka() != null) {
        runtime.kafka().degraded("yarn-hook", failure); // GateRuntime itself announces monitor-only
      }
    }
    bindMeters(runtime.registry());
  }

  /**
   * YARN's application priorities as the fallback priority source, or null when turned off or
   * unknown.
   */
  private static PrioritySource rmPriorities(Configuration conf, YarnSettings settings) {
    String url = settings.rmPrioritiesUrl(conf.get("yarn.resourcemanager.webapp.address"));
    if (url == null) {
      LOG.info("Sluice gate: no YARN priorities (no ResourceManager web address)");
      return null;
    }
    try {
      long timeoutMs =
          GateConfig.fromMap(
                  EssSettings.gateProperties(
                      YarnSettings.withoutYarnKeys(YarnSettings.collect(conf))))
              .get(GateConfig.PRIORITY_TIMEOUT_MS);
      return new YarnRmPrioritySource(url, java.time.Duration.ofMillis(timeoutMs));
    } catch (RuntimeException e) {
      LOG.warn("Sluice gate: no YARN priorities from {} ({})", url, e.toString());
      return null;
    }
  }

  private void bindMeters(MeterRegistry registry) {
    Gauge.builder("sluice.throttle.yarn.hook.installed", this, s -> s.status.installed() ? 1 : 0)
        .description(
            "1: the gate is in the YARN shuffle service's path; 0: degraded to monitor-only")
        .register(registry);
    FunctionCounter.builder(
            "sluice.throttle.yarn.apps.initialized", appsInitialized, AtomicLong::get)
        .description("Applications the NodeManager announced to the shuffle service")
        .register(registry);
    FunctionCounter.builder("sluice.throttle.yarn.apps.stopped", appsStopped, AtomicLong::get)
        .description("Applications the NodeManager reported ended (their gate state is dropped)")
        .register(registry);
  }

  @Override
  public void initializeApplication(ApplicationInitializationContext context) {
    super.initializeApplication(context);
    appsInitialized.incrementAndGet();
    // YARN gives the user and the app id only; queue and priority come from the priority map
    LOG.debug(
        "application {} of user {} started on this node",
        context.getApplicationId(),
        context.getUser());
  }

  @Override
  public void stopApplication(ApplicationTerminationContext context) {
    GateRuntime rt = runtime;
    if (rt != null) {
      rt.gate().appEnded(context.getApplicationId().toString());
    }
    appsStopped.incrementAndGet();
    super.stopApplication(context);
  }

  @Override
  protected void serviceStop() {
    try {
      super.serviceStop();
    } finally {
      GateRuntime rt = runtime;
      runtime = null;
      if (rt != null) {
        rt.close();
      }
    }
  }

  /** Whether the gate is in the path (and why not). */
  public HookStatus hookStatus() {
    return status;
  }

  /** The gate and its surroundings (null before init and after stop). */
  public GateRuntime runtime() {
    return runtime;
  }
}
