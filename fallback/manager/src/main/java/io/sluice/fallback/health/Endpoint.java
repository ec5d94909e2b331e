package io.sluice.fallback.health;

import java.util.ArrayList;
import java.util.List;

/** A {@code host:port} a tier's client talks to. */
public record Endpoint(String host, int port) {

  public Endpoint {
    if (host == null || host.isBlank()) {
      throw new IllegalArgumentException("empty host");
    }
    if (port < 1 || port > 65535) {
      throw new IllegalArgumentException("port " + port + " out of 1..65535");
    }
  }

  /**
   * Parses a comma-separated list of {@code host[:port]} ({@code [v6]:port} accepted); a missing
   * port is {@code defaultPort}. Blank entries are skipped.
   *
   * @throws IllegalArgumentException naming the bad entry, or if the list holds no endpoint
   */
  public static List<Endpoint> parseList(String list, int defaultPort) {
    List<Endpoint> out = new ArrayList<>();
    if (list != null) {
      for (String raw : list.split(",")) {
        String e = raw.trim();
        if (!e.isEmpty()) {
          out.add(parse(e, defaultPort));
        }
      }
    }
    if (out.isEmpty()) {
      throw new IllegalArgumentException("no endpoint in '" + (list == null ? "" : list) + "'");
    }
    return List.copyOf(out);
  }

  static Endpoint parse(String e, int defaultPort) {
    String host;
    String port = null;
    if (e.startsWith("[")) {
      int close = e.indexOf(']');
      if (close < 0) {
        throw new IllegalArgumentException("bad endpoint '" + e + "'");
      }
      host = e.substring(1, close);
      if (close + 1 < e.length()) {
        if (e.charAt(close + 1) != ':') {
          throw new IllegalArgumentException("bad endpoint '" + e + "'");
        }
        port = e.substring(close + 2);
      }
    } else {
      int colon = e.lastIndexOf(':');
      if (colon >= 0 && e.indexOf(':') != colon) {
        throw new IllegalArgumentException("bad endpoint '" + e + "' (IPv6 needs [brackets])");
      }
      host = colon < 0 ? e : e.substring(0, colon);
      port = colon < 0 ? null : e.substring(colon + 1);
    }
    int p;
    if (port == null) {
      p = defaultPort;
    } else {
      try {
        p = Integer.parseInt(port.trim());
      } catch (NumberFormatException x) {
        throw new IllegalArgumentException("bad port in endpoint '" + e + "'");
      }
    }
    try {
      return new Endpoint(host.trim(), p);
    } catch (IllegalArgumentException x) {
      throw new IllegalArgumentException("bad endpoint '" + e + "': " + x.getMessage());
    }
  }

  @Override
  public String toString() {
    return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
  }
}
