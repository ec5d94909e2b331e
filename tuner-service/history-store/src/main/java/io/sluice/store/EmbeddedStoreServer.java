package io.sluice.store;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.concurrent.CountDownLatch;
import org.h2.tools.Server;

/**
 * Runs the embedded history store as its own process: an H2 TCP server on 127.0.0.1 serving databases under
 * a base directory. Clients open {@code jdbc:h2:tcp://127.0.0.1:PORT/sluice-history} (a path relative to the
 * base directory). Usage: {@code EmbeddedStoreServer PORT BASE_DIR} (PORT 0 picks a free port). Prints one
 * line {@code EmbeddedStoreServer listening on 127.0.0.1:PORT base ...} to stdout when ready and nothing else
 * but logs to stderr; stops cleanly on SIGTERM/SIGINT (open databases are closed, files consistent).
 *
 * <p>It accepts loopback connections only (the listening socket is bound to 127.0.0.1 and H2 refuses
 * non-local peers) and creates a database that does not exist yet on first connect.
 */
public final class EmbeddedStoreServer {
  private EmbeddedStoreServer() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 2) {
      System.err.println("usage: EmbeddedStoreServer PORT BASE_DIR");
      System.exit(2);
    }
    int port = Integer.parseInt(args[0]);
    Path base = Path.of(args[1]).toAbsolutePath();
    Files.createDirectories(base);
    Server server = start(port, base);
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      System.err.println("EmbeddedStoreServer stopping");
      server.stop();
      stopped.countDown();
    }, "h2-store-shutdown"));
    System.out.println("EmbeddedStoreServer listening on 127.0.0.1:" + server.getPort() + " base " + base);
    System.out.flush();
    stopped.await();
  }

  /** Starts the server on 127.0.0.1 (port 0: a free one; read it back with {@link Server#getPort()}). */
  public static Server start(int port, Path baseDir) throws SQLException, IOException {
    System.setProperty("h2.bindAddress", "127.0.0.1");
    int p = port == 0 ? freePort() : port;
    return Server.createTcpServer("-tcpPort", Integer.toString(p), "-baseDir", baseDir.toString(), "-ifNotExists")
        .start();
  }

  static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }
}
