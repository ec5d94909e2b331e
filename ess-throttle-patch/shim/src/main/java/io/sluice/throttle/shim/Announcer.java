package io.sluice.throttle.shim;

/** Announces the shim to the shuffle service at {@code host:port} (at most once per address; never blocks). */
@FunctionalInterface
interface Announcer {
  void announce(String host, int port);

  Announcer NONE = (host, port) -> { };
}
