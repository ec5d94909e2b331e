package io.sluice.submit;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;

/**
 * A test double of tuner-service's submission endpoint on loopback: answers {@code POST
 * /api/v1/submissions} with a canned status and body after an optional delay, and records the
 * request bodies.
 */
public final class FakeTuner implements AutoCloseable {
  private final HttpServer server;
  private final List<String> requests = new CopyOnWriteArrayList<>();
  private final List<String> reports = new CopyOnWriteArrayList<>();
  private final List<String> tierReports = new CopyOnWriteArrayList<>();
  private final List<String> launchFailures = new CopyOnWriteArrayList<>();
  private volatile int status = 200;
  private volatile String body = "{}";
  private volatile long delayMs;

  public FakeTuner() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setExecutor(
        Executors.newCachedThreadPool(
            r -> {
              Thread t = new Thread(r, "fake-tuner");
              t.setDaemon(true);
              return t;
            }));
    server.createContext(
        "/api/v1/submissions",
        ex -> {
          try (InputStream in = ex.getRequestBody()) {
            requests.add(new String(in.readAllBytes(), StandardCharsets.UTF_8));
          }
          try {
            if (delayMs > 0) {
              Thread.sleep(delayMs);
            }
            byte[] out = body.getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().add("Content-Type", "application/json");
            ex.sendResponseHeaders(status, out.length);
            try (OutputStream os = ex.getResponseBody()) {
              os.write(out);
            }
          } catch (InterruptedException | IOException e) {
            // client went away (timeout tests)
          } finally {
            ex.close();
          }
        });
    // its own context: the submissions context would otherwise take it (contexts match by path
    // prefix)
    server.createContext(
        io.sluice.submit.outcome.LaunchFailures.PATH,
        ex -> {
          try (InputStream in = ex.getRequestBody()) {
            launchFailures.add(new String(in.readAllBytes(), StandardCharsets.UTF_8));
          }
          byte[] out = "{}".getBytes(StandardCharsets.UTF_8);
          ex.sendResponseHeaders(200, out.length);
          try (OutputStream os = ex.getResponseBody()) {
            os.write(out);
          }
          ex.close();
        });
    server.createContext(
        "/api/v1/throttle/apps",
        ex -> {
          try (InputStream in = ex.getRequestBody()) {
            reports.add(new String(in.readAllBytes(), StandardCharsets.UTF_8));
          }
          ex.sendResponseHeaders(201, -1);
          ex.close();
        });
    server.createContext(
        "/api/v1/tiers/outcomes",
        ex -> {
          try (InputStream in = ex.getRequestBody()) {
            tierReports.add(new String(in.readAllBytes(), StandardCharsets.UTF_8));
          }
          byte[] out = "{}".getBytes(StandardCharsets.UTF_8);
          ex.sendResponseHeaders(200, out.length);
          try (OutputStream os = ex.getResponseBody()) {
            os.write(out);
          }
          ex.close();
        });
    server.start();
  }

  /** Bodies of {@code POST /api/v1/tiers/outcomes} (run reports), answered 200. */
  public List<String> tierReports() {
    return tierReports;
  }

  /** Bodies of {@code POST /api/v1/throttle/apps} (the app reporter's reports), answered 201. */
  public List<String> reports() {
    return reports;
  }

  public FakeTuner answer(int status, String body) {
    this.status = status;
    this.body = body;
    return this;
  }

  public FakeTuner delay(long ms) {
    this.delayMs = ms;
    return this;
  }

  public String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  public List<String> requests() {
    return requests;
  }

  /** Bodies of {@code POST /api/v1/submissions/launch-failures}, answered 200. */
  public List<String> launchFailures() {
    return launchFailures;
  }

  /** A loopback URL where nothing listens. */
  public static String deadUrl() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return "http://127.0.0.1:" + s.getLocalPort();
    }
  }

  /** A contract-shaped answer with the given overlay JSON object. */
  public static String advice(String submissionId, String jobKey, String overlayJson) {
    return "{\"submissionId\":\""
        + submissionId
        + "\",\"jobKey\":\""
        + jobKey
        + "\",\"state\":\"TUNING\","
        + "\"overlay\":"
        + overlayJson
        + ",\"changes\":[],\"reasons\":[\"test\"]}";
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
