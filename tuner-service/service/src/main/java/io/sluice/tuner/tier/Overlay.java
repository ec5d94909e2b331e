package io.sluice.tuner.tier;

import java.util.Map;

/**
 * A tier's conf overlay for one job: {@code confs} to append (never a key in the user's conf), or a
 * refusal ({@code refusal} non-null, {@code confs} empty) when the tier cannot be applied to this
 * job.
 */
public record Overlay(Map<String, String> confs, String refusal) {
  public boolean refused() {
    return refusal != null;
  }
}
