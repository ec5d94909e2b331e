package io.sluice.fallback.it;

import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real Spark standalone cluster (pyspark's distribution, a separate ESS) through {@code
 * deploy/bin/spark-cluster.sh}, on ports of its own, and applications submitted through {@code
 * deploy/jobs/submit.sh}. Close it in a finally.
 */
public final class SparkStandalone implements AutoCloseable {
  public static final String VERSION = "3.5.7";

  private final Path root;
  private final Path state;
  private boolean started;

  public SparkStandalone(Path root, Path state) {
    this.root = root;
    this.state = state;
  }

  public static Path repoRoot() {
    String r = System.getProperty("sluice.root");
    Path p = Path.of(r != null ? r : "../..").toAbsolutePath().normalize();
    if (!Files.isRegularFile(p.resolve("deploy/bin/spark-cluster.sh"))) {
      throw new IllegalStateException("not the Sluice repository root: " + p);
    }
    return p;
  }

  public Path stateDir() {
    return state;
  }

  /**
   * The separate ESS's log (it logs every executor registration with its shuffle manager class).
   */
  public Path essLog() {
    return state.resolve("logs/ess.out");
  }

  public Result start() throws IOException, InterruptedException {
    started = true; // from here on close() stops whatever the script recorded
    Result r =
        run(
            List.of(
                root.resolve("deploy/bin/spark-cluster.sh").toString(),
                "start",
                "--version",
                VERSION,
                "--state-dir",
                state.toString(),
                "--master-port",
                String.valueOf(freePort()),
                "--webui-port",
                String.valueOf(freePort()),
                "--ess-port",
                String.valueOf(freePort()),
                "--workers",
                "1",
                "--worker-cores",
                "2",
                "--worker-memory",
                "1536m",
                "--timeout",
                "120"),
            state.resolveSibling("spark-cluster-start.log"),
            Duration.ofSeconds(180));
    if (r.exit() != 0) {
      throw new IllegalStateException("spark-cluster.sh start failed:\n" + r.output());
    }
    return r;
  }

  /** {@code deploy/jobs/submit.sh --state-dir ... ARGS}; output to {@code log}. */
  public Result submit(List<String> args, Path log, Duration timeout)
      throws IOException, InterruptedException {
    List<String> cmd =
        new ArrayList<>(
            List.of(
                root.resolve("deploy/jobs/submit.sh").toString(),
                "--version",
                VERSION,
                "--state-dir",
                state.toString()));
    cmd.addAll(args);
    return run(cmd, log, timeout);
  }

  @Override
  public void close() throws IOException, InterruptedException {
    if (started) {
      run(
          List.of(
              root.resolve("deploy/bin/spark-cluster.sh").toString(),
              "stop",
              "--state-dir",
              state.toString()),
          state.resolveSibling("spark-cluster-stop.log"),
          Duration.ofSeconds(120));
    }
  }

  public static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  /** A finished child process: exit code, its combined output and how long it ran. */
  public record Result(int exit, String output, long elapsedMs) {
    public String tail() {
      return output.length() <= 6000 ? output : output.substring(output.length() - 6000);
    }
  }

  static Result run(List<String> cmd, Path log, Duration timeout)
      throws IOException, InterruptedException {
    Files.createDirectories(log.toAbsolutePath().getParent());
    ProcessBuilder pb =
        new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
    pb.environment().put("SPARK_LOCAL_IP", "127.0.0.1");
    long t0 = System.nanoTime();
    Process p = pb.start();
    try {
      if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        throw new IllegalStateException(
            String.join(" ", cmd) + " did not finish within " + timeout + "; log " + log);
      }
    } finally {
      if (p.isAlive()) {
        p.descendants().forEach(ProcessHandle::destroy);
        p.destroy();
        p.waitFor(10, TimeUnit.SECONDS);
      }
    }
    long ms = (System.nanoTime() - t0) / 1_000_000;
    return new Result(p.exitValue(), Files.readString(log, StandardCharsets.UTF_8), ms);
  }

  /** A classpath string of existing entries (fails on a missing one). */
  public static String classpath(String... entries) {
    List<String> out = new ArrayList<>();
    for (String e : entries) {
      for (String part : e.split(File.pathSeparator)) {
        if (!part.isBlank()) {
          if (!Files.exists(Path.of(part))) {
            throw new IllegalStateException("class path entry missing: " + part);
          }
          out.add(part);
        }
      }
    }
    return String.join(File.pathSeparator, out);
  }
}
