package io.sluice.tuner.ui;

/**
 * Who may read a run's whole Spark configuration. The service's security layer supplies the real rule (callers
 * with OPERATOR on the run's queue, and ADMIN); without one, nobody does and every caller sees the redacted view.
 */
@FunctionalInterface
public interface ConfAccess {
  /** True when the current caller may read every (non-secret) value of a run submitted to {@code queue}. */
  boolean seesFullConf(String queue);

  /** The rule when no security layer supplies one: nobody sees values beyond the tunable keys. */
  ConfAccess TUNABLE_KEYS_ONLY = queue -> false;
}
