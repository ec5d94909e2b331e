package io.sluice.store;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.h2.tools.Server;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@link EmbeddedStoreServer} as its own process: prints one line {@code EmbeddedStoreServer
 * listening on 127.0.0.1:PORT base ...} to stdout when ready and nothing else but logs to stderr;
 * stops cleanly on SIGTERM/SIGINT.
 */
@Command(
    name = "EmbeddedStoreServer",
    mixinStandardHelpOptions = true,
    description =
        "The embedded history store: an H2 TCP server on 127.0.0.1 serving databases under BASE_DIR.")
final class EmbeddedStoreCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "PORT", description = "TCP port; 0 picks a free one.")
  int port;

  @Parameters(
      index = "1",
      paramLabel = "BASE_DIR",
      description = "Directory of the databases (created if missing).")
  Path base;

  @Override
  public Integer call() throws Exception {
    Path dir = base.toAbsolutePath();
    Files.createDirectories(dir);
    Optional<StoreCredentials> credentials = StoreCredentials.fromProcess();
    if (credentials.isEmpty()) {
      System.err.println(
          "EmbeddedStoreServer: no store password ("
              + StoreCredentials.ENV_PASSWORD_FILE
              + "): any local user can open or create databases here");
    }
    Server server = EmbeddedStoreServer.start(port, dir, credentials);
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  System.err.println("EmbeddedStoreServer stopping");
                  server.stop();
                  stopped.countDown();
                },
                "h2-store-shutdown"));
    System.out.println(
        "EmbeddedStoreServer listening on 127.0.0.1:" + server.getPort() + " base " + dir);
    System.out.flush();
    stopped.await();
    return 0;
  }
}
