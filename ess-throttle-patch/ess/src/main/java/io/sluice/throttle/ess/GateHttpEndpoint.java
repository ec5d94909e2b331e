package io.sluice.throttle.ess;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;

/**
 * The ESS host's metrics endpoint (JDK HTTP server, one thread of its own, never the shuffle
 * server's): {@code GET /metrics} is the Prometheus text exposition of the registry, {@code GET
 * /gate} the gate's snapshot as JSON.
 */
public final class GateHttpEndpoint implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final HttpServer server;
  private final ExecutorService executor;

  public GateHttpEndpoint(
      String host, int port, PrometheusMeterRegistry registry, Supplier<Object> snapshot)
      throws IOException {
    server = HttpServer.create(new InetSocketAddress(host, port), 16);
    server.createContext(
        "/metrics",
        ex ->
            respond(
                ex,
                "text/plain; version=0.0.4; charset=utf-8",
                () -> registry.scrape().getBytes(StandardCharsets.UTF_8)));
    server.createContext(
        "/gate",
        ex ->
            respond(
                ex,
                "application/json",
                () -> JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(snapshot.get())));
    executor =
        Executors.newSingleThreadExecutor(
            r -> {
              Thread t = new Thread(r, "sluice-gate-http");
              t.setDaemon(true);
              return t;
            });
    server.setExecutor(executor);
    server.start();
  }

  public int port() {
    return server.getAddress().getPort();
  }

  private interface Body {
    byte[] get() throws IOException;
  }

  private static void respond(HttpExchange ex, String contentType, Body body) throws IOException {
    try (ex) {
      if (!"GET".equals(ex.getRequestMethod())) {
        ex.sendResponseHeaders(405, -1);
        return;
      }
      byte[] bytes;
      try {
        bytes = body.get();
      } catch (IOException | RuntimeException e) {
        bytes = ("error: " + e).getBytes(StandardCharsets.UTF_8);
        ex.sendResponseHeaders(500, bytes.length);
        try (OutputStream out = ex.getResponseBody()) {
          out.write(bytes);
        }
        return;
      }
      ex.getResponseHeaders().set("Content-Type", contentType);
      ex.sendResponseHeaders(200, bytes.length);
      try (OutputStream out = ex.getResponseBody()) {
        out.write(bytes);
      }
    }
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}
