package io.sluice.collect.metrics;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A collector's Prometheus endpoint: {@code GET /metrics} on the JDK's HTTP server (one daemon
 * thread of its own) renders a registry holding the given meters and the JVM's memory, threads, CPU
 * and uptime.
 *
 * <pre>{@code
 * try (MetricsEndpoint m = MetricsEndpoint.start("127.0.0.1", 9471, new EventLogCollectorMetrics(collector))) {
 *     collector.run();
 * }
 * }</pre>
 */
public final class MetricsEndpoint implements AutoCloseable {

  private final PrometheusMeterRegistry registry =
      new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final HttpServer server;
  private final ExecutorService executor;

  private MetricsEndpoint(String host, int port, MeterBinder... binders) throws IOException {
    for (MeterBinder b :
        new MeterBinder[] {
          new JvmMemoryMetrics(),
          new JvmThreadMetrics(),
          new ProcessorMetrics(),
          new UptimeMetrics()
        }) {
      b.bindTo(registry);
    }
    for (MeterBinder b : binders) {
      b.bindTo(registry);
    }
    server = HttpServer.create(new InetSocketAddress(host, port), 16);
    server.createContext("/metrics", this::scrape);
    executor =
        Executors.newSingleThreadExecutor(
            r -> {
              Thread t = new Thread(r, "sluice-metrics-http");
              t.setDaemon(true);
              return t;
            });
    server.setExecutor(executor);
    server.start();
  }

  /**
   * Serves the meters on {@code host:port}; port 0 means no endpoint (returns null).
   *
   * @throws IOException when the address cannot be bound, naming it
   */
  public static MetricsEndpoint start(String host, int port, MeterBinder... binders)
      throws IOException {
    if (port == 0) {
      return null;
    }
    if (port < 0 || port > 65_535) {
      throw new IllegalArgumentException("metrics port must be 0 (off) or 1-65535, got " + port);
    }
    try {
      return new MetricsEndpoint(host, port, binders);
    } catch (IOException e) {
      throw new IOException(
          "cannot serve metrics on " + host + ":" + port + ": " + e.getMessage(), e);
    }
  }

  public int port() {
    return server.getAddress().getPort();
  }

  private void scrape(HttpExchange ex) throws IOException {
    try (ex) {
      if (!"GET".equals(ex.getRequestMethod())) {
        ex.sendResponseHeaders(405, -1);
        return;
      }
      byte[] body = registry.scrape().getBytes(StandardCharsets.UTF_8);
      ex.getResponseHeaders().set("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
      ex.sendResponseHeaders(200, body.length);
      try (OutputStream out = ex.getResponseBody()) {
        out.write(body);
      }
    }
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
    registry.close();
  }
}
