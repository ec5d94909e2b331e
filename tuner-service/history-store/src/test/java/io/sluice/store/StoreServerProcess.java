package io.sluice.store;

import java.io.BufferedReader;

import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Test helper: runs {@link EmbeddedStoreServer} as a separate JVM, as the demo does. */
final class StoreServerProcess {
  private static final Pattern READY = Pattern.compile("listening on 127\\.0\\.0\\.1:(\\d+)");

  final Process process;
  final int port;
  final Path log;

  private StoreServerProcess(Process process, int port, Path log) {
    this.process = process;
    this.port = port;
    this.log = log;
  }

  static StoreServerProcess start(Path baseDir, Path log) throws IOException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Files.createDirectories(log.getParent());
    Process p = new ProcessBuilder(java, "-Xmx128m", "-cp", System.getProperty("java.class.path"),
        EmbeddedStoreServer.class.getName(), "0", baseDir.toString())
        .redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()))
        .start();
    BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
    CompletableFuture<Integer> ready = CompletableFuture.supplyAsync(() -> {
      try {
        for (String line; (line = out.readLine()) != null; ) {
          Matcher m = READY.matcher(line);
          if (m.find()) {
            return Integer.parseInt(m.group(1));
          }
        }
      } catch (IOException e) {
        // fall through
      }
      return -1;
    });
    int port;
    try {
      port = ready.get(60, TimeUnit.SECONDS);
    } catch (Exception e) {
      port = -1;
    }
    if (port <= 0) {
      p.destroyForcibly();
      throw new IllegalStateException("EmbeddedStoreServer did not start; log " + log + ":\n" + Files.readString(log));
    }
    return new StoreServerProcess(p, port, log);
  }

  String url(String db) {
    return "jdbc:h2:tcp://127.0.0.1:" + port + "/" + db;
  }

  /** SIGTERM and wait; the exit code (a JVM ended by SIGTERM exits with 143), -1 if it had to be killed. */
  int stop() throws InterruptedException {
    process.destroy();
    if (process.waitFor(30, TimeUnit.SECONDS)) {
      return process.exitValue();
    }
    process.destroyForcibly();
    process.waitFor(10, TimeUnit.SECONDS);
    return -1;
  }

}
