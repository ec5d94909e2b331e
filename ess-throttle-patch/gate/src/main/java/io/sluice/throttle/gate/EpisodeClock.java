package io.sluice.throttle.gate;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * ABNORMAL episodes: when the current one began and how many requests were held during it; at its
 * end its length and holds go to the meters and the events. Holds are counted from any thread, the
 * rest from the tick thread.
 */
final class EpisodeClock {
  private final GateMeters meters;
  private final GateEvents events;
  private final LongAdder holds = new LongAdder();
  private long start;
  private long holdsBefore;

  EpisodeClock(GateMeters meters, GateEvents events) {
    this.meters = meters;
    this.events = events;
  }

  /** A request was held. */
  void held() {
    holds.increment();
  }

  /**
   * The node went from {@code from} to {@code to} at {@code now}, its signal as shown: meters,
   * events, episode.
   */
  void changed(NodeState from, NodeState to, LatencyWindow.Stats shown, long now) {
    meters.stateChanged();
    events.stateChanged(
        from, to, shown.p99Micros() < 0 ? -1 : shown.p99Micros() / 1_000, shown.samples());
    if (to == NodeState.ABNORMAL) {
      began(now);
    } else {
      ended(now);
    }
  }

  /** The node turned ABNORMAL at {@code now}. */
  void began(long now) {
    start = now;
    holdsBefore = holds.sum();
  }

  /** The node turned NORMAL at {@code now}. */
  void ended(long now) {
    long held = holds.sum() - holdsBefore;
    meters.episodeEnded(now - start, held);
    events.episodeEnded(TimeUnit.NANOSECONDS.toMillis(now - start), held);
  }
}
