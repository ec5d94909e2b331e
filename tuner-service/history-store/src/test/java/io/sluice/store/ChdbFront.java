package io.sluice.store;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Test helper: installs chdb-core if missing (deploy/bin/install-chdb.sh) and runs
 * deploy/clickhouse/chdb_http_front.py as a child process on a free loopback port. Never skips: if chdb cannot
 * be installed or the front does not come up, it throws with the reason.
 */
final class ChdbFront implements AutoCloseable {
  private static final Pattern READY = Pattern.compile("listening on 127\\.0\\.0\\.1:(\\d+)");

  final Process process;
  final int port;
  final Path log;

  private ChdbFront(Process process, int port, Path log) {
    this.process = process;
    this.port = port;
    this.log = log;
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
    throw new IllegalStateException("cannot find the repository root (deploy/bin/install-chdb.sh) from "
        + Path.of("").toAbsolutePath());
  }

  /** Runs the (idempotent) install script; returns the venv's python. */
  static Path installChdb(Path root) throws IOException, InterruptedException {
    Path script = root.resolve("deploy/bin/install-chdb.sh");
    Process p = new ProcessBuilder("bash", script.toString()).redirectErrorStream(false).start();
    CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> readAll(p.getInputStream()));
    CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> readAll(p.getErrorStream()));
    if (!p.waitFor(15, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      throw new IllegalStateException("install-chdb.sh did not finish in 15 minutes");
    }
    if (p.exitValue() != 0) {
      throw new IllegalStateException("install-chdb.sh failed (exit " + p.exitValue() + "); chdb-core is needed "
          + "for the ClickHouse tests (pip install from PyPI into .sluice/venv-chdb):\n" + err.join());
    }
    List<String> lines = out.join().strip().lines().toList();
    Path python = Path.of(lines.get(lines.size() - 1));
    if (!Files.isExecutable(python)) {
      throw new IllegalStateException("install-chdb.sh printed no usable python: " + out.join());
    }
    return python;
  }

  static ChdbFront start(Path dataDir, Path logFile) throws IOException, InterruptedException {
    Path root = repoRoot();
    Path python = installChdb(root);
    Path front = root.resolve("deploy/clickhouse/chdb_http_front.py");
    Files.createDirectories(logFile.getParent());
    Process p = new ProcessBuilder(python.toString(), front.toString(), "--port", "0", "--data", dataDir.toString())
        .redirectError(ProcessBuilder.Redirect.appendTo(logFile.toFile()))
        .start();
    BufferedReader stdout = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
    CompletableFuture<Integer> ready = CompletableFuture.supplyAsync(() -> {
      try {
        for (String line; (line = stdout.readLine()) != null; ) {
          Matcher m = READY.matcher(line);
          if (m.find()) {
            return Integer.parseInt(m.group(1));
          }
        }
        return -1;
      } catch (IOException e) {
        return -1;
      }
    });
    int port;
    try {
      port = ready.get(120, TimeUnit.SECONDS);
    } catch (Exception e) {
      port = -1;
    }
    if (port <= 0) {
      p.destroyForcibly();
      throw new IllegalStateException("the chdb HTTP front did not start; its log " + logFile + ":\n"
          + Files.readString(logFile));
    }
    return new ChdbFront(p, port, logFile);
  }

  String url(String database) {
    // compress=false: the front does not implement ClickHouse's LZ4 block framing (driver property "compress").
    return "jdbc:ch://127.0.0.1:" + port + "/" + database + "?compress=false";
  }

  /** SIGTERM, then wait; returns the exit code (force-kills after 30 s and returns -1). */
  int stop() throws InterruptedException {
    process.destroy();
    if (process.waitFor(30, TimeUnit.SECONDS)) {
      return process.exitValue();
    }
    process.destroyForcibly();
    process.waitFor(10, TimeUnit.SECONDS);
    return -1;
  }

  @Override
  public void close() throws InterruptedException {
    if (process.isAlive()) {
      stop();
    }
  }

  private static String readAll(java.io.InputStream in) {
    try {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "";
    }
  }
}
