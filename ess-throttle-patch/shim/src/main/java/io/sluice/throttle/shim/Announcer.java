package io.sluice.throttle.shim;

/**
 * Announces the shim to the shuffle service at {@code host:port}: called before every fetch from
 * it, greets each new connection once; never blocks.
 */
@FunctionalInterface
interface Announcer {
  void announce(String host, int port);

  Announcer NONE = (host, port) -> {};
}
