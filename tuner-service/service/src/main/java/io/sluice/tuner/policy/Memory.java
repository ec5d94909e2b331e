package io.sluice.tuner.policy;

import java.util.List;

/**
 * What the decision log remembers beyond the portrait's window: rollbacks (with the start time of
 * the run that was rolled back), the start time of the run that last re-opened the job (0 if never)
 * and the launches that failed before their application ran. Rejections from runs that started
 * before the last re-open are forgotten.
 */
public record Memory(
    List<Rejection> rejections, long lastReopenStart, List<LaunchFailure> launchFailures) {
  public Memory {
    rejections = rejections == null ? List.of() : List.copyOf(rejections);
    launchFailures = launchFailures == null ? List.of() : List.copyOf(launchFailures);
  }

  public Memory(List<Rejection> rejections, long lastReopenStart) {
    this(rejections, lastReopenStart, List.of());
  }

  public static Memory empty() {
    return new Memory(List.of(), 0);
  }
}
