package io.sluice.tuner.ui;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.sluice.store.GateEvent;
import io.sluice.store.GateEventLog;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What the UI shows of the ESS gates, derived from their stored events; pure. A node's state is the
 * {@code to} of its newest stateChanged event ({@code UNKNOWN} without one). An <i>episode</i> runs
 * from a change to a state other than NORMAL until the next change back to NORMAL ({@code end} null
 * while it lasts). {@code heldNow} is the node's held events minus its released events in the
 * window (a held request is released within seconds), at least 0.
 */
final class ThrottleReadings {
  static final String NORMAL = "NORMAL";
  static final String UNKNOWN = "UNKNOWN";

  /** The most buckets a timeline has. */
  static final int MAX_BUCKETS = 2000;

  private ThrottleReadings() {}

  /** Counts one node's held events in [start, end). */
  @FunctionalInterface
  interface HeldCounter {
    long held(String cluster, String node, long start, long end);
  }

  @JsonPropertyOrder({"start", "end", "durationMs", "held"})
  record Episode(long start, Long end, long durationMs, long held) {}

  @JsonPropertyOrder({
    "cluster",
    "node",
    "state",
    "since",
    "lastEventAt",
    "heldNow",
    "held",
    "released",
    "episodes"
  })
  record NodeRow(
      String cluster,
      String node,
      String state,
      Long since,
      long lastEventAt,
      long heldNow,
      long held,
      long released,
      List<Episode> episodes) {}

  @JsonPropertyOrder({"at", "held", "released", "directives", "abnormalNodes"})
  record Bucket(long at, long held, long released, long directives, long abnormalNodes) {}

  private record Span(long start, Long end) {}

  /** The nodes, by cluster and node, with their episodes overlapping [from, to). */
  static List<NodeRow> nodes(
      List<GateEvent> stateChanges,
      List<GateEventLog.NodeActivity> activity,
      long from,
      long to,
      HeldCounter counter) {
    Map<String, List<GateEvent>> byNode = byNode(stateChanges);
    List<NodeRow> out = new ArrayList<>();
    for (GateEventLog.NodeActivity a : activity) {
      List<GateEvent> changes = byNode.getOrDefault(key(a.cluster(), a.node()), List.of());
      GateEvent last = changes.isEmpty() ? null : changes.get(changes.size() - 1);
      List<Episode> episodes = new ArrayList<>();
      for (Span s : spans(changes)) {
        if (s.start() < to && (s.end() == null || s.end() > from)) {
          long end = s.end() == null ? to : s.end();
          episodes.add(
              new Episode(
                  s.start(),
                  s.end(),
                  Math.max(0, end - s.start()),
                  counter.held(a.cluster(), a.node(), s.start(), end)));
        }
      }
      out.add(
          new NodeRow(
              a.cluster(),
              a.node(),
              last == null || last.toState() == null ? UNKNOWN : last.toState(),
              last == null ? null : last.at(),
              a.lastEventAt(),
              Math.max(0, a.held() - a.released()),
              a.held(),
              a.released(),
              episodes));
    }
    return out;
  }

  /**
   * Every bucket of [from, to), with its counts and how many nodes were in an episode during it.
   */
  static List<Bucket> timeline(
      List<GateEventLog.TypeCount> counts,
      List<GateEvent> stateChanges,
      long from,
      long to,
      long bucketMs) {
    Map<Long, long[]> byBucket = new HashMap<>();
    for (GateEventLog.TypeCount c : counts) {
      int i =
          switch (c.type()) {
            case "held" -> 0;
            case "released" -> 1;
            case "directive" -> 2;
            default -> -1;
          };
      if (i >= 0) {
        byBucket.computeIfAbsent(c.at(), k -> new long[3])[i] += c.count();
      }
    }
    List<Span> spans = new ArrayList<>();
    byNode(stateChanges).values().forEach(changes -> spans.addAll(spans(changes)));
    List<Bucket> out = new ArrayList<>();
    for (long b = from; b < to; b += bucketMs) {
      long[] n = byBucket.getOrDefault(b, new long[3]);
      long end = b + bucketMs;
      long abnormal = 0;
      for (Span s : spans) {
        if (s.start() < end && (s.end() == null || s.end() > b)) {
          abnormal++;
        }
      }
      out.add(new Bucket(b, n[0], n[1], n[2], abnormal));
    }
    return out;
  }

  /** How many nodes are in an episode at the end of the changes (now). */
  static long abnormalNow(List<GateEvent> stateChanges) {
    long n = 0;
    for (List<GateEvent> changes : byNode(stateChanges).values()) {
      GateEvent last = changes.get(changes.size() - 1);
      if (last.toState() != null && !NORMAL.equals(last.toState())) {
        n++;
      }
    }
    return n;
  }

  private static List<Span> spans(List<GateEvent> changes) {
    List<Span> out = new ArrayList<>();
    Long open = null;
    for (GateEvent e : changes) {
      boolean normal = e.toState() == null || NORMAL.equals(e.toState());
      if (!normal && open == null) {
        open = e.at();
      } else if (normal && open != null) {
        out.add(new Span(open, e.at()));
        open = null;
      }
    }
    if (open != null) {
      out.add(new Span(open, null));
    }
    return out;
  }

  private static Map<String, List<GateEvent>> byNode(List<GateEvent> stateChanges) {
    Map<String, List<GateEvent>> out = new java.util.LinkedHashMap<>();
    for (GateEvent e : stateChanges) {
      out.computeIfAbsent(key(e.cluster(), e.node()), k -> new ArrayList<>()).add(e);
    }
    return out;
  }

  private static String key(String cluster, String node) {
    return cluster + "\u0000" + node;
  }
}
