package io.sluice.fallback;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/**
 * Real loopback sockets for tests: a listening port (a tier that answers) and a closed one (a tier
 * that is down).
 */
public final class Loopback {
  private Loopback() {}

  /** A server socket listening on 127.0.0.1 (close it when done). */
  public static ServerSocket listening() throws IOException {
    return new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
  }

  /** A loopback port nothing listens on (bound and released just now). */
  public static int closedPort() throws IOException {
    try (ServerSocket s = listening()) {
      return s.getLocalPort();
    }
  }
}
