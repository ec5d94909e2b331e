package io.sluice.tuner.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A loopback TCP relay to a local port that can be paused: while paused it still accepts
 * connections but holds every byte it reads (the server behind it looks hung: no answer, no error);
 * resumed, it passes on what it held and carries on, as a server back from a stall would. {@link
 * #close()} closes every socket it opened.
 */
public final class PausableProxy implements AutoCloseable {
  private final ServerSocket server;
  private final int target;
  private final List<Socket> sockets = new CopyOnWriteArrayList<>();
  private final Object gate = new Object();
  private boolean paused;

  public PausableProxy(int target) throws IOException {
    this.target = target;
    this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    daemon("proxy-accept", this::accept);
  }

  public int port() {
    return server.getLocalPort();
  }

  public void pause() {
    synchronized (gate) {
      paused = true;
    }
  }

  public void resume() {
    synchronized (gate) {
      paused = false;
      gate.notifyAll();
    }
  }

  private void accept() {
    while (!server.isClosed()) {
      try {
        Socket client = server.accept();
        sockets.add(client);
        Socket upstream = new Socket(InetAddress.getLoopbackAddress(), target);
        sockets.add(upstream);
        daemon("proxy-up", () -> relay(client, upstream));
        daemon("proxy-down", () -> relay(upstream, client));
      } catch (IOException e) {
        if (server.isClosed()) {
          return;
        }
      }
    }
  }

  private void relay(Socket from, Socket to) {
    byte[] buf = new byte[8192];
    try (InputStream in = from.getInputStream();
        OutputStream out = to.getOutputStream()) {
      int n;
      while ((n = in.read(buf)) >= 0) {
        synchronized (gate) {
          while (paused) {
            gate.wait();
          }
        }
        out.write(buf, 0, n);
        out.flush();
      }
    } catch (IOException e) {
      // a side closed: the finally closes the other
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      closeQuietly(from);
      closeQuietly(to);
    }
  }

  private static void daemon(String name, Runnable r) {
    Thread t = new Thread(r, name);
    t.setDaemon(true);
    t.start();
  }

  private static void closeQuietly(Socket s) {
    try {
      s.close();
    } catch (IOException ignored) {
      // closing anyway
    }
  }

  @Override
  public void close() throws IOException {
    resume();
    server.close();
    for (Socket s : sockets) {
      closeQuietly(s);
    }
  }
}
