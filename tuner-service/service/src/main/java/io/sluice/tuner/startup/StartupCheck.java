package io.sluice.tuner.startup;

import java.util.Optional;

/**
 * One piece of state tuner-service must have before it reports ready: the store migrated and
 * answering, the rollout rules loaded, the outcome totals restored. Each component that loads such
 * state in the background offers one as a bean; {@link Readiness} reports ready once all of them
 * are done.
 */
public interface StartupCheck {
  /** A short name for logs and the health details, e.g. {@code store}. */
  String name();

  /**
   * Empty once the state is loaded; otherwise what it is still waiting for (e.g. the last error).
   * Never blocks.
   */
  Optional<String> waitingFor();
}
