package io.sluice.fallback.yarn;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The real tuner-service (its Spring Boot jar as built) in a child JVM on a loopback port, with an H2 file store in
 * {@code dir} and the given {@code sluice.*} properties. {@link #close()} stops it by its own PID.
 */
final class TunerServiceProcess implements AutoCloseable {
  private final Process process;
  private final String url;
  private final Path log;

  private TunerServiceProcess(Process process, String url, Path log) {
    this.process = process;
    this.url = url;
    this.log = log;
  }

  static TunerServiceProcess start(Path bootJar, Path dir, Map<String, String> properties) throws IOException {
    if (!Files.isRegularFile(bootJar)) {
      throw new IllegalStateException("tuner-service jar not built: " + bootJar + " (mvn -pl tuner-service/service install)");
    }
    Files.createDirectories(dir);
    int port = freeLoopbackPort();
    List<String> cmd = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx256m", "-XX:TieredStopAtLevel=1", "-jar", bootJar.toString(),
        "--server.address=127.0.0.1", "--server.port=" + port,
        "--sluice.tuner.store-url=" + storeUrl(dir)));
    properties.forEach((k, v) -> cmd.add("--" + k + "=" + v));
    Path log = dir.resolve("tuner-service.log");
    Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
        .redirectOutput(log.toFile()).start();
    return new TunerServiceProcess(p, "http://127.0.0.1:" + port, log);
  }

  /** The JDBC URL of the H2 history store the service started in {@code dir} uses. */
  static String storeUrl(Path dir) {
    return "jdbc:h2:file:" + dir.resolve("sluice-history").toAbsolutePath();
  }

  /** Waits until {@code /actuator/health} answers 200; fails with the log's tail otherwise. */
  TunerServiceProcess awaitHealthy(Duration timeout) throws IOException, InterruptedException {
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IllegalStateException("tuner-service exited " + process.exitValue() + ":\n" + tail());
      }
      try {
        HttpResponse<Void> r = http.send(HttpRequest.newBuilder(URI.create(url + "/actuator/health"))
            .timeout(Duration.ofSeconds(2)).build(), HttpResponse.BodyHandlers.discarding());
        if (r.statusCode() == 200) {
          return this;
        }
      } catch (IOException e) {
        // not listening yet
      }
      Thread.sleep(250);
    }
    throw new IllegalStateException("tuner-service not healthy within " + timeout + ":\n" + tail());
  }

  String url() {
    return url;
  }

  String tail() throws IOException {
    List<String> lines = Files.readAllLines(log);
    return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
  }

  @Override
  public void close() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(20, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
  }

  static int freeLoopbackPort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }
}
