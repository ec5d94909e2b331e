package io.sluice.tuner.security;

import java.util.Locale;

/**
 * The roles of tuner-service's callers. ADMIN includes OPERATOR, OPERATOR includes VIEWER (the
 * hierarchy is declared in {@link SecurityConfiguration}); ADMIN also includes REPORTER. REPORTER
 * is for machine callers only (sluice-submit, the driver plugins, the ESS gates): it does not
 * include VIEWER.
 */
public enum Role {
  /** Every read of the API and the UI. */
  VIEWER,
  /** VIEWER plus freeze, unfreeze and operator trials (optionally limited to the user's queues). */
  OPERATOR,
  /** OPERATOR plus rollout rules, deny entries and everything else. */
  ADMIN,
  /** Machine callers: submissions, app reports, run outcomes and the gates' priority pulls. */
  REPORTER;

  /** The Spring Security authority of this role ({@code ROLE_VIEWER}, ...). */
  public String authority() {
    return "ROLE_" + name();
  }

  /** Parses a role name (case-insensitive), naming the bad value and the allowed ones. */
  public static Role parse(String name) {
    try {
      return valueOf(name.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "unknown role '" + name.trim() + "' (one of VIEWER, OPERATOR, ADMIN, " + "REPORTER)");
    }
  }
}
