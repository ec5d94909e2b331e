package io.sluice.fallback.it;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The real tuner-service as a child process ({@code java -jar} of its executable jar) on a loopback port, over an H2
 * store in a directory of the test's. Close it in a finally: it stops the process it started, by its handle.
 */
public final class TunerService implements AutoCloseable {
  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private final Process process;
  private final int port;
  private final Path log;

  private TunerService(Process process, int port, Path log) {
    this.process = process;
    this.port = port;
    this.log = log;
  }

  /**
   * Starts the service with {@code --key=value} properties added and returns at once: call {@link #awaitReady}
   * before using it (so the caller can start other things meanwhile).
   */
  public static TunerService launch(Path jar, Path dir, List<String> properties) throws IOException {
    if (!Files.isRegularFile(jar)) {
      throw new IllegalStateException("tuner-service jar missing: " + jar + " (mvn -pl tuner-service/service install)");
    }
    Files.createDirectories(dir);
    int port = SparkStandalone.freePort();
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-jar", jar.toString(),
        "--server.address=127.0.0.1", "--server.port=" + port,
        "--sluice.tuner.store-url=jdbc:h2:file:" + dir.resolve("sluice-history").toAbsolutePath()));
    properties.forEach(p -> cmd.add("--" + p));
    Path log = dir.resolve("tuner-service.log");
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    return new TunerService(p, port, log);
  }

  /** Waits until the API answers; fails (and stops the process) if it exits or does not answer in time. */
  public TunerService awaitReady(Duration timeout) throws InterruptedException {
    long end = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < end) {
      if (!process.isAlive()) {
        throw new IllegalStateException("tuner-service exited with " + process.exitValue() + ":\n" + logTail());
      }
      try {
        if (get("/api/v1/tiers/alerts").statusCode() == 200) {
          return this;
        }
      } catch (IOException e) {
        // not listening yet
      }
      Thread.sleep(250);
    }
    close();
    throw new IllegalStateException("tuner-service did not answer within " + timeout + ":\n" + logTail());
  }

  public String url() {
    return "http://127.0.0.1:" + port;
  }

  public HttpResponse<String> get(String path) throws IOException, InterruptedException {
    return HTTP.send(HttpRequest.newBuilder(URI.create(url() + path)).timeout(Duration.ofSeconds(10)).GET().build(),
        HttpResponse.BodyHandlers.ofString());
  }

  public String logTail() {
    try {
      String s = Files.readString(log);
      return s.length() <= 6000 ? s : s.substring(s.length() - 6000);
    } catch (IOException e) {
      return "(no log: " + e + ")";
    }
  }

  @Override
  public void close() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(20, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      process.waitFor(10, TimeUnit.SECONDS);
    }
  }
}
