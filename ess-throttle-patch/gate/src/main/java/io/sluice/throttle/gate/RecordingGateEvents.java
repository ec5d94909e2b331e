package io.sluice.throttle.gate;

import java.util.ArrayList;
import java.util.List;

/** Keeps every event as a line of text (tests, the simulator, the demo). Thread-safe. */
public final class RecordingGateEvents implements GateEvents {
  private final List<String> events = new ArrayList<>();

  @Override
  public synchronized void stateChanged(
      NodeState from, NodeState to, long p99Millis, long samples) {
    events.add("state " + from + "->" + to + " p99=" + p99Millis + " samples=" + samples);
  }

  @Override
  public synchronized void episodeEnded(long durationMillis, long heldRequests) {
    events.add("episode " + durationMillis + "ms held=" + heldRequests);
  }

  @Override
  public synchronized void held(String appId, int priority, int blocks) {
    events.add("held " + appId + " p" + priority + " blocks=" + blocks);
  }

  @Override
  public synchronized void released(
      String appId, int priority, long heldMillis, ReleaseReason reason) {
    events.add("released " + appId + " p" + priority + " after=" + heldMillis + " " + reason);
  }

  @Override
  public synchronized void directive(String appId, int priority, long sleepMillis) {
    events.add("directive " + appId + " p" + priority + " sleep=" + sleepMillis);
  }

  @Override
  public synchronized void degraded(String what, String detail) {
    events.add("degraded " + what + " " + detail);
  }

  /** A copy of the events so far. */
  public synchronized List<String> events() {
    return List.copyOf(events);
  }

  /** The events so far starting with {@code prefix}. */
  public synchronized List<String> events(String prefix) {
    return events.stream().filter(e -> e.startsWith(prefix)).toList();
  }

  public synchronized void clear() {
    events.clear();
  }
}
