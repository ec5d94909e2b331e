package io.sluice.store;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/** Test helper: runs {@link EmbeddedStoreServer} as a separate JVM, as the demo does. */
final class StoreServerProcess implements AutoCloseable {
  final ChildProcess child;

  private StoreServerProcess(ChildProcess child) {
    this.child = child;
  }

  static StoreServerProcess start(Path baseDir, Path log) throws IOException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> command =
        List.of(
            java,
            "-Xmx128m",
            "-cp",
            System.getProperty("java.class.path"),
            EmbeddedStoreServer.class.getName(),
            "0",
            baseDir.toString());
    return new StoreServerProcess(
        ChildProcess.start("EmbeddedStoreServer", command, log, Duration.ofSeconds(60)));
  }

  String url(String db) {
    return "jdbc:h2:tcp://127.0.0.1:" + child.port + "/" + db;
  }

  /**
   * SIGTERM and wait; the exit code (a JVM ended by SIGTERM exits with 143), -1 if it had to be
   * killed.
   */
  int stop() throws InterruptedException {
    return child.stop();
  }

  @Override
  public void close() throws InterruptedException {
    child.close();
  }
}
