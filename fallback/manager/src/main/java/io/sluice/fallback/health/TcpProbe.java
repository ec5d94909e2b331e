package io.sluice.fallback.health;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Connects to all endpoints at once (non-blocking) and reports healthy as soon as one accepts a TCP
 * connection; unhealthy when every one refused, failed, or did not answer before the timeout. One
 * thread, bounded by the timeout (plus name resolution).
 */
public final class TcpProbe {
  private TcpProbe() {}

  public static Health anyAccepts(List<Endpoint> endpoints, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    List<String> failures = new ArrayList<>();
    List<SocketChannel> open = new ArrayList<>();
    try (Selector selector = Selector.open()) {
      for (Endpoint ep : endpoints) {
        InetSocketAddress address = new InetSocketAddress(ep.host(), ep.port());
        if (address.isUnresolved()) {
          failures.add(ep + " unresolved");
          continue;
        }
        SocketChannel ch = SocketChannel.open();
        open.add(ch);
        try {
          ch.configureBlocking(false);
          if (ch.connect(address)) {
            return Health.up(ep + " accepted a connection");
          }
          ch.register(selector, SelectionKey.OP_CONNECT, ep);
        } catch (IOException e) {
          failures.add(ep + " " + describe(e));
        }
      }
      while (!selector.keys().isEmpty()) {
        long leftMs = (deadline - System.nanoTime()) / 1_000_000;
        if (leftMs <= 0) {
          break;
        }
        selector.select(leftMs);
        for (SelectionKey key : selector.selectedKeys()) {
          Endpoint ep = (Endpoint) key.attachment();
          try {
            if (((SocketChannel) key.channel()).finishConnect()) {
              return Health.up(ep + " accepted a connection");
            }
          } catch (IOException e) {
            failures.add(ep + " " + describe(e));
            key.cancel();
          }
        }
        selector.selectedKeys().clear();
        selector.selectNow(); // flush cancelled keys
      }
      for (SelectionKey key : selector.keys()) {
        failures.add(key.attachment() + " no answer within " + timeout.toMillis() + " ms");
      }
      return Health.down(String.join("; ", failures));
    } catch (IOException e) {
      return Health.down("probe failed: " + describe(e));
    } finally {
      for (SocketChannel ch : open) {
        try {
          ch.close();
        } catch (IOException ignored) {
          // closing a probe socket: nothing to do
        }
      }
    }
  }

  private static String describe(IOException e) {
    String m = e.getMessage();
    return m == null || m.isBlank() ? e.getClass().getSimpleName() : m.toLowerCase(Locale.ROOT);
  }
}
