package io.sluice.tuner;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Metric tag values taken from reported (caller-controlled) fields, kept to a bounded set so that a
 * caller cannot make the service grow one time series per value it sends: a value of the configured
 * set is kept; with no set configured, the first {@code max} distinct values seen are kept; any
 * other value becomes {@value #OTHER}.
 */
public final class TagValues {
  public static final String OTHER = "other";

  private final Set<String> allowed;
  private final int max;
  private final Set<String> seen = ConcurrentHashMap.newKeySet();

  public TagValues(Set<String> allowed, int max) {
    if (max < 0) {
      throw new IllegalArgumentException("max must be >= 0, was " + max);
    }
    this.allowed = Set.copyOf(allowed);
    this.max = max;
  }

  public String of(String value) {
    if (value == null) {
      return "";
    }
    if (!allowed.isEmpty()) {
      return allowed.contains(value) ? value : OTHER;
    }
    if (seen.contains(value)) {
      return value;
    }
    synchronized (seen) {
      if (seen.size() < max) {
        seen.add(value);
        return value;
      }
    }
    return seen.contains(value) ? value : OTHER;
  }
}
