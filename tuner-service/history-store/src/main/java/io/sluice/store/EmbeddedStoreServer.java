package io.sluice.store;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;
import org.h2.tools.Server;
import picocli.CommandLine;

/**
 * Runs the embedded history store as its own process: an H2 TCP server on 127.0.0.1 serving
 * databases under a base directory. Clients open {@code
 * jdbc:h2:tcp://127.0.0.1:PORT/sluice-history} (a path relative to the base directory). Usage:
 * {@code EmbeddedStoreServer PORT BASE_DIR} (PORT 0 picks a free port). Prints one line {@code
 * EmbeddedStoreServer listening on 127.0.0.1:PORT base ...} to stdout when ready and nothing else
 * but logs to stderr; stops cleanly on SIGTERM/SIGINT (open databases are closed, files
 * consistent).
 *
 * <p>It accepts loopback connections only (the listening socket is bound to 127.0.0.1 and H2
 * refuses non-local peers). With {@link StoreCredentials} configured (the same ones its clients
 * use), it creates or opens the database {@value #DATABASE} with that user and password before it
 * listens — adopting a database an earlier, password-less start created — and serves only existing
 * databases, so a client needs the password. Without them it says so on stderr and, as before,
 * creates any database a client names on first connect with whatever credentials that client
 * brings.
 */
public final class EmbeddedStoreServer {
  /** The database the embedded stack uses. */
  public static final String DATABASE = "sluice-history";

  /** H2's error code for a wrong user name or password. */
  private static final int WRONG_USER_OR_PASSWORD = 28000;

  private EmbeddedStoreServer() {}

  /**
   * Runs the server as its own process ({@link EmbeddedStoreCommand}; {@code --help} lists the
   * arguments).
   */
  public static void main(String[] args) {
    int rc = new CommandLine(new EmbeddedStoreCommand()).execute(args);
    if (rc != 0) {
      System.exit(rc);
    }
  }

  /**
   * Starts the server on 127.0.0.1 (port 0: a free one; read it back with {@link
   * Server#getPort()}).
   */
  public static Server start(int port, Path baseDir) throws SQLException, IOException {
    return start(port, baseDir, Optional.empty());
  }

  /**
   * As {@link #start(int, Path)}, requiring {@code credentials} when present (see the class
   * comment).
   */
  public static Server start(int port, Path baseDir, Optional<StoreCredentials> credentials)
      throws SQLException, IOException {
    System.setProperty("h2.bindAddress", "127.0.0.1");
    int p = port == 0 ? freePort() : port;
    if (credentials.isEmpty()) {
      return Server.createTcpServer(
              "-tcpPort", Integer.toString(p), "-baseDir", baseDir.toString(), "-ifNotExists")
          .start();
    }
    prepare(baseDir, credentials.get());
    return Server.createTcpServer(
            "-tcpPort",
            Integer.toString(p),
            "-baseDir",
            baseDir.toString(),
            "-tcpPassword",
            credentials.get().password())
        .start();
  }

  /**
   * Creates {@value #DATABASE} with the credentials' user as its admin, or checks that it opens
   * with them; a database created earlier without a password (user "", password "") gets the user,
   * and its password-less user is dropped.
   */
  static void prepare(Path baseDir, StoreCredentials credentials) throws SQLException {
    String url = "jdbc:h2:file:" + baseDir.resolve(DATABASE);
    try (Connection c = DriverManager.getConnection(url, credentials.jdbc())) {
      return;
    } catch (SQLException e) {
      if (e.getErrorCode() != WRONG_USER_OR_PASSWORD) {
        throw e;
      }
    }
    try (Connection legacy = DriverManager.getConnection(url, "", "");
        Statement st = legacy.createStatement()) {
      st.execute(
          "CREATE USER IF NOT EXISTS \""
              + credentials.user().toUpperCase(java.util.Locale.ROOT)
              + "\" PASSWORD '"
              + credentials.password().replace("'", "''")
              + "' ADMIN");
    } catch (SQLException e) {
      throw new SQLException(
          "the store "
              + url
              + " opens neither with the configured user "
              + credentials.user()
              + " nor without a password",
          e);
    }
    try (Connection c = DriverManager.getConnection(url, credentials.jdbc());
        Statement st = c.createStatement()) {
      st.execute("DROP USER IF EXISTS \"\"");
    }
    System.err.println(
        "EmbeddedStoreServer: " + DATABASE + " now requires the configured password");
  }

  static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }
}
