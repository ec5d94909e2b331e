package io.sluice.fallback.testing;

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
 * The real tuner-service (its Spring Boot jar as built, {@code java -jar}) in a child JVM on a
 * loopback port, with an H2 file store in {@code dir} ({@link #storeUrl}) and the given {@code
 * sluice.*} properties. Its credentials are a tokens file written in {@code dir} (mode 600) with a
 * fresh random ADMIN token ({@link #get} sends it) and REPORTER token ({@link #reporterTokenFile}:
 * hand it to machine callers as {@code SLUICE_TUNER_TOKEN_FILE} or the system property {@code
 * sluice.tuner.token-file}). {@link #start} returns at once, so the caller can start other things
 * while the service boots; call {@link #awaitHealthy} before using it. {@link #close()} stops the
 * process it started, by its handle: close it in a finally.
 */
public final class TunerServiceProcess implements AutoCloseable {
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private final Process process;
  private final String url;
  private final Path log;
  private final String adminToken;
  private final Path reporterTokenFile;

  private TunerServiceProcess(
      Process process, String url, Path log, String adminToken, Path reporterTokenFile) {
    this.process = process;
    this.url = url;
    this.log = log;
    this.adminToken = adminToken;
    this.reporterTokenFile = reporterTokenFile;
  }

  /**
   * Starts the service with {@code --key=value} for each of {@code properties} (in their order).
   */
  public static TunerServiceProcess start(Path bootJar, Path dir, Map<String, String> properties)
      throws IOException {
    if (!Files.isRegularFile(bootJar)) {
      throw new IllegalStateException(
          "tuner-service jar not built: " + bootJar + " (mvn -pl tuner-service/service install)");
    }
    Files.createDirectories(dir);
    String admin = randomToken();
    String reporter = randomToken();
    Path tokens =
        secret(
            dir.resolve("tokens"),
            "test-admin:ADMIN:" + admin + "\ntest-reporter:REPORTER:" + reporter + "\n");
    Path reporterFile = secret(dir.resolve("reporter-token"), reporter + "\n");
    int port = freeLoopbackPort();
    List<String> cmd =
        new ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m",
                "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1",
                "-jar",
                bootJar.toString(),
                "--server.address=127.0.0.1",
                "--server.port=" + port,
                "--sluice.tuner.store-url=" + storeUrl(dir),
                "--sluice.security.tokens-file=" + tokens.toAbsolutePath()));
    properties.forEach((k, v) -> cmd.add("--" + k + "=" + v));
    Path log = dir.resolve("tuner-service.log");
    Process p =
        new ProcessBuilder(cmd)
            .directory(dir.toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    return new TunerServiceProcess(
        p, "http://127.0.0.1:" + port, log, admin, reporterFile.toAbsolutePath());
  }

  /** The file holding the REPORTER token (for sluice-submit, the driver plugins and the gates). */
  public Path reporterTokenFile() {
    return reporterTokenFile;
  }

  private static String randomToken() {
    byte[] b = new byte[24];
    new java.security.SecureRandom().nextBytes(b);
    return java.util.HexFormat.of().formatHex(b);
  }

  private static Path secret(Path file, String text) throws IOException {
    Files.deleteIfExists(file);
    Files.createFile(
        file,
        java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
            java.nio.file.attribute.PosixFilePermissions.fromString("rw-------")));
    return Files.writeString(file, text);
  }

  /**
   * The JDBC URL of the H2 history store a service started in {@code dir} uses (tests may seed it
   * first).
   */
  public static String storeUrl(Path dir) {
    return "jdbc:h2:file:" + dir.resolve("sluice-history").toAbsolutePath();
  }

  /**
   * Waits until the service reports ready ({@code /actuator/health/readiness} answers 200: its
   * store answered and its control state, such as the rollout rules, is loaded); fails with the
   * log's tail if the process exits, and stops it and fails if it does not answer within {@code
   * timeout}.
   */
  public TunerServiceProcess awaitHealthy(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IllegalStateException(
            "tuner-service exited with " + process.exitValue() + ":\n" + logTail());
      }
      try {
        if (get("/actuator/health/readiness").statusCode() == 200) {
          return this;
        }
      } catch (IOException e) {
        // not listening yet
      }
      Thread.sleep(250);
    }
    close();
    throw new IllegalStateException(
        "tuner-service not ready within " + timeout + ":\n" + logTail());
  }

  public String url() {
    return url;
  }

  /** GET with the ADMIN token. */
  public HttpResponse<String> get(String path) throws IOException, InterruptedException {
    return HTTP.send(
        HttpRequest.newBuilder(URI.create(url + path))
            .timeout(Duration.ofSeconds(10))
            .header("Authorization", "Bearer " + adminToken)
            .GET()
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** The last 6,000 characters of the service's log, for assertion messages. */
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
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
  }

  private static int freeLoopbackPort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }
}
