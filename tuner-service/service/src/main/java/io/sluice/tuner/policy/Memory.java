package io.sluice.tuner.policy;

import java.util.List;

/**
 * What the decision log remembers beyond the portrait's window: rollbacks (with the start time of the run that was
 * rolled back) and the start time of the run that last re-opened the job (0 if never). Rejections from runs that
 * started before the last re-open are forgotten.
 */
public record Memory(List<Rejection> rejections, long lastReopenStart) {
  public Memory {
    rejections = rejections == null ? List.of() : List.copyOf(rejections);
  }

  public static Memory empty() {
    return new Memory(List.of(), 0);
  }
}
