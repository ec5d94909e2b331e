package io.sluice.bench.throttlesim.engine;

import java.util.PriorityQueue;

/**
 * The discrete-event engine: a priority queue of timestamped actions run in time order; actions
 * scheduled for the same instant run in the order they were scheduled (a sequence number breaks
 * ties), so a run is a pure function of its inputs and seeds. Time is in nanoseconds from 0 and
 * only moves when the next event is taken.
 */
public final class EventLoop {
  private static final class Event implements Comparable<Event> {
    final long at;
    final long seq;
    final Runnable action;

    Event(long at, long seq, Runnable action) {
      this.at = at;
      this.seq = seq;
      this.action = action;
    }

    @Override
    public int compareTo(Event o) {
      int c = Long.compare(at, o.at);
      return c != 0 ? c : Long.compare(seq, o.seq);
    }
  }

  private final PriorityQueue<Event> queue = new PriorityQueue<>(1 << 16);
  private long now;
  private long seq;
  private long executed;

  /** The current simulated time in nanoseconds. */
  public long now() {
    return now;
  }

  /** Runs {@code action} at absolute time {@code at} (not before now). */
  public void at(long at, Runnable action) {
    if (at < now) {
      throw new IllegalArgumentException("cannot schedule in the past: at=" + at + " now=" + now);
    }
    queue.add(new Event(at, seq++, action));
  }

  /** Runs {@code action} {@code delayNanos} from now. */
  public void after(long delayNanos, Runnable action) {
    at(now + delayNanos, action);
  }

  /**
   * Runs events in time order until the queue is empty or the next event is later than {@code
   * until}; time is left at the last event run. Returns the number of events run by this call.
   */
  public long runUntil(long until) {
    long before = executed;
    while (!queue.isEmpty() && queue.peek().at <= until) {
      Event e = queue.poll();
      now = e.at;
      executed++;
      e.action.run();
    }
    return executed - before;
  }

  /** Events waiting. */
  public int pending() {
    return queue.size();
  }

  /** Events run since the loop was created. */
  public long executed() {
    return executed;
  }
}
