package io.sluice.throttle.protocol;

import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The SLEEP directive: the gate's reply to a fetch RPC of a shim application that is over its
 * range, carried as the RpcFailure error string ({@code SLUICE-SLEEP ms=<n> app=<appId>}). Spark's
 * client turns an RpcFailure into a RuntimeException that RetryingBlockTransferor does not retry,
 * so only the shim (which recognises the string anywhere in an exception message chain) may ever
 * receive it.
 *
 * @param sleepMillis how long the app should pause its fetches from this node
 * @param appId the app the directive is for
 */
public record SluiceDirective(long sleepMillis, String appId) {
  /** The marker every directive starts with. */
  public static final String MARKER = "SLUICE-SLEEP";

  private static final Pattern FORMAT = Pattern.compile("SLUICE-SLEEP ms=(\\d{1,12}) app=(\\S+)");

  public SluiceDirective {
    Objects.requireNonNull(appId, "appId");
    if (sleepMillis < 0) {
      throw new IllegalArgumentException("sleepMillis must be >= 0, was " + sleepMillis);
    }
    if (appId.isEmpty() || appId.chars().anyMatch(Character::isWhitespace)) {
      throw new IllegalArgumentException(
          "appId must be non-empty without whitespace, was '" + appId + "'");
    }
  }

  /** The error string sent as the RpcFailure. */
  public String format() {
    return MARKER + " ms=" + sleepMillis + " app=" + appId;
  }

  /**
   * Finds a directive in an error message (Spark may wrap the server's string, e.g. "Failure while
   * fetching ...: java.lang.RuntimeException: SLUICE-SLEEP ms=..."). Empty when there is none.
   */
  public static Optional<SluiceDirective> parse(String message) {
    if (message == null || !message.contains(MARKER)) {
      return Optional.empty();
    }
    Matcher m = FORMAT.matcher(message);
    if (!m.find()) {
      return Optional.empty();
    }
    return Optional.of(new SluiceDirective(Long.parseLong(m.group(1)), m.group(2)));
  }

  /** Looks through a throwable and its causes for a directive. */
  public static Optional<SluiceDirective> find(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
      Optional<SluiceDirective> d = parse(c.getMessage());
      if (d.isPresent()) {
        return d;
      }
    }
    return Optional.empty();
  }

  @Override
  public String toString() {
    return format();
  }
}
