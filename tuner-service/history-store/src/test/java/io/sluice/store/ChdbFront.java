package io.sluice.store;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Test helper: installs chdb-core if missing (deploy/bin/install-chdb.sh) and runs
 * deploy/clickhouse/chdb_http_front.py as a child process on a free loopback port. Never skips: if
 * chdb cannot be installed or the front does not come up, it throws with the reason.
 */
public final class ChdbFront implements AutoCloseable {
  final ChildProcess child;
  final int port;
  final Path log;

  private ChdbFront(ChildProcess child) {
    this.child = child;
    this.port = child.port;
    this.log = child.log;
  }

  static Path repoRoot() {
    String prop = System.getProperty("sluice.root");
    if (prop != null && Files.exists(Path.of(prop, "deploy/bin/install-chdb.sh"))) {
      return Path.of(prop);
    }
    for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
      if (Files.exists(p.resolve("deploy/bin/install-chdb.sh"))) {
        return p;
      }
    }
    throw new IllegalStateException(
        "cannot find the repository root (deploy/bin/install-chdb.sh) from "
            + Path.of("").toAbsolutePath());
  }

  /** Runs the (idempotent) install script; returns the venv's python. */
  static Path installChdb(Path root) throws IOException, InterruptedException {
    Path script = root.resolve("deploy/bin/install-chdb.sh");
    Process p = new ProcessBuilder("bash", script.toString()).redirectErrorStream(false).start();
    CompletableFuture<String> out =
        CompletableFuture.supplyAsync(() -> readAll(p.getInputStream()));
    CompletableFuture<String> err =
        CompletableFuture.supplyAsync(() -> readAll(p.getErrorStream()));
    if (!p.waitFor(15, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      throw new IllegalStateException("install-chdb.sh did not finish in 15 minutes");
    }
    if (p.exitValue() != 0) {
      throw new IllegalStateException(
          "install-chdb.sh failed (exit "
              + p.exitValue()
              + "); chdb-core is needed "
              + "for the ClickHouse tests (pip install from PyPI into .sluice/venv-chdb):\n"
              + err.join());
    }
    List<String> lines = out.join().strip().lines().toList();
    Path python = Path.of(lines.get(lines.size() - 1));
    if (!Files.isExecutable(python)) {
      throw new IllegalStateException("install-chdb.sh printed no usable python: " + out.join());
    }
    return python;
  }

  public static ChdbFront start(Path dataDir, Path logFile)
      throws IOException, InterruptedException {
    Path root = repoRoot();
    Path python = installChdb(root);
    Path front = root.resolve("deploy/clickhouse/chdb_http_front.py");
    List<String> command =
        List.of(python.toString(), front.toString(), "--port", "0", "--data", dataDir.toString());
    return new ChdbFront(
        ChildProcess.start("the chdb HTTP front", command, logFile, Duration.ofSeconds(120)));
  }

  public String url(String database) {
    // compress=false: the front does not implement ClickHouse's LZ4 block framing (driver property
    // "compress").
    return "jdbc:ch://127.0.0.1:" + port + "/" + database + "?compress=false";
  }

  /** SIGTERM, then wait; returns the exit code (force-kills after 30 s and returns -1). */
  public int stop() throws InterruptedException {
    return child.stop();
  }

  @Override
  public void close() throws InterruptedException {
    child.close();
  }

  private static String readAll(java.io.InputStream in) {
    try {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "";
    }
  }
}
