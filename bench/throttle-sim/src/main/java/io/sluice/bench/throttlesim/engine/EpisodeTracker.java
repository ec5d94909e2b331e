package io.sluice.bench.throttlesim.engine;

import java.util.ArrayList;
import java.util.List;

/**
 * Abnormal episodes of one signal across the fleet: {@link #set} is told a node's state at a time;
 * an episode runs from the first abnormal report to the next normal one. Episodes still open when
 * the run ends are kept apart (censored) with their length so far.
 */
public final class EpisodeTracker {
  private final long[] since;
  private final List<Long> durations = new ArrayList<>();
  private final List<Long> censored = new ArrayList<>();
  private final boolean[] everAbnormal;

  public EpisodeTracker(int nodes) {
    since = new long[nodes];
    java.util.Arrays.fill(since, -1);
    everAbnormal = new boolean[nodes];
  }

  public void set(int node, boolean abnormal, long now) {
    if (abnormal && since[node] < 0) {
      since[node] = now;
      everAbnormal[node] = true;
    } else if (!abnormal && since[node] >= 0) {
      durations.add(now - since[node]);
      since[node] = -1;
    }
  }

  public boolean abnormal(int node) {
    return since[node] >= 0;
  }

  /** Closes the books at {@code end}: open episodes become censored. */
  public void finish(long end) {
    for (int n = 0; n < since.length; n++) {
      if (since[n] >= 0) {
        censored.add(end - since[n]);
        since[n] = -1;
      }
    }
  }

  public List<Long> durations() {
    return durations;
  }

  public List<Long> censored() {
    return censored;
  }

  public int nodesEverAbnormal() {
    int n = 0;
    for (boolean b : everAbnormal) {
      n += b ? 1 : 0;
    }
    return n;
  }
}
