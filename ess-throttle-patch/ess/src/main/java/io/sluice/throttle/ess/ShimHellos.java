package io.sluice.throttle.ess;

import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.throttle.protocol.SluiceHello;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Decides whether a shim's HELLO is believed: who may say "connections of app X understand SLEEP".
 *
 * <ul>
 *   <li><b>The transport authenticated the connection</b> ({@code spark.authenticate=true}: Spark's
 *       auth or SASL bootstrap sets the connection's client id to the application id whose secret
 *       it proved, and lets no message of an unauthenticated connection through): the HELLO is
 *       accepted only for that application id.
 *   <li><b>No authentication</b>: trust on first use. The first HELLO for an application id binds
 *       the id to the host it came from; a later HELLO for the same id from another host is refused
 *       while the binding lasts (the last {@value #DEFAULT_MAX_APPS} application ids are
 *       remembered, the oldest forgotten first).
 * </ul>
 *
 * A refusal is counted ({@value #METER}{@code {result=refused, reason}}) and answered with an error
 * to the sender; the gate's decisions for the app are unaffected. Whatever is accepted, a SLEEP
 * directive only ever goes to the connection that carried the accepted HELLO ({@link
 * io.sluice.throttle.gate.Connection#shimAnnounced()}), so a spoofed HELLO can at worst make the
 * spoofer's own fetches sleep.
 */
final class ShimHellos {
  static final String METER = "sluice.ess.shim.hellos";
  static final int DEFAULT_MAX_APPS = 10_000;

  /** Refusals logged at WARN; later ones are only counted. */
  static final int WARN_LIMIT = 20;

  /** Why a HELLO was refused; null for an accepted one. */
  enum Refusal {
    /** The connection authenticated as another application. */
    IDENTITY_MISMATCH("identity-mismatch"),
    /** Trust on first use: the id is bound to another host. */
    OTHER_HOST("other-host");

    final String tag;

    Refusal(String tag) {
      this.tag = tag;
    }
  }

  private final MeterRegistry registry;
  private final Map<String, String> hostByApp;
  private final AtomicLong refusals = new AtomicLong();

  ShimHellos(MeterRegistry registry, int maxApps) {
    this.registry = registry;
    this.hostByApp =
        new LinkedHashMap<>(16, 0.75f, false) {
          @Override
          protected boolean removeEldestEntry(Map.Entry<String, String> eldest) {
            return size() > maxApps;
          }
        };
  }

  /**
   * @param hello the decoded HELLO
   * @param authenticatedId the connection's client id (the authenticated application id), null when
   *     the transport does not authenticate
   * @param peerHost the sending host's address
   * @return null when accepted, else why not
   */
  Refusal check(SluiceHello hello, String authenticatedId, String peerHost) {
    Refusal r = decide(hello.appId(), authenticatedId, peerHost);
    registry
        .counter(
            METER,
            "result",
            r == null ? "accepted" : "refused",
            "reason",
            r == null ? "none" : r.tag)
        .increment();
    if (r != null) {
      refusals.incrementAndGet();
    }
    return r;
  }

  /** Whether this refusal should still be logged at WARN. */
  boolean warnAbout() {
    return refusals.get() <= WARN_LIMIT;
  }

  private Refusal decide(String appId, String authenticatedId, String peerHost) {
    if (authenticatedId != null) {
      return authenticatedId.equals(appId) ? null : Refusal.IDENTITY_MISMATCH;
    }
    String host = peerHost == null ? "" : peerHost;
    synchronized (hostByApp) {
      String bound = hostByApp.putIfAbsent(appId, host);
      return bound == null || bound.equals(host) ? null : Refusal.OTHER_HOST;
    }
  }
}
