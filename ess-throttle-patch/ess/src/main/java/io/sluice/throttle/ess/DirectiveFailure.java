package io.sluice.throttle.ess;

/**
 * The failure a SLEEP directive is sent as. Spark's server turns a failure into the RpcFailure
 * string with {@code Throwables.getStackTraceAsString}; with no stack trace and {@link #toString()}
 * returning the bare message, that string is exactly the directive ({@code SLUICE-SLEEP ms=<n>
 * app=<appId>}).
 */
final class DirectiveFailure extends RuntimeException {
  private static final long serialVersionUID = 1L;

  DirectiveFailure(String directive) {
    super(directive, null, false, false);
  }

  @Override
  public String toString() {
    return getMessage();
  }
}
