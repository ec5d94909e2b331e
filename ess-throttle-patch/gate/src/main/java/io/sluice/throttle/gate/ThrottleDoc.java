package io.sluice.throttle.gate;

import io.sluice.config.Unit;
import java.util.List;

/**
 * Generates docs/throttle.md from the knob declarations in {@link GateConfig}; {@code
 * ThrottleDocTest} fails when the committed file differs.
 *
 * <p>The golden test regenerates it ({@link #REGENERATE}); there is no separate entry point.
 */
public final class ThrottleDoc {
  /** How to regenerate the committed file (printed by the golden test when it is stale). */
  public static final String REGENERATE =
      "mvn -q -B -pl ess-throttle-patch/gate test -Dtest=ThrottleDocTest -Dsluice.throttle.doc.write=true";

  private ThrottleDoc() {}

  public static String generate(List<Knob<?>> knobs) {
    StringBuilder b = new StringBuilder();
    b.append("# ESS throttle gate\n\n")
        .append(
            "<!-- Generated from the knob declarations in io.sluice.throttle.gate.GateConfig by ")
        .append("io.sluice.throttle.gate.ThrottleDoc; do not edit.\n     Regenerate: ")
        .append(REGENERATE)
        .append(" -->\n\n")
        .append(
            "The gate (`io.sluice.throttle.gate.ThrottleGate`) sits in the External Shuffle Service ")
        .append(
            "and decides for every fetch request (OpenBlocks, FetchShuffleBlocks, FetchShuffleBlockChunks) ")
        .append(
            "whether to serve it now (ADMIT), park it and serve it later (HOLD) or, for applications running ")
        .append(
            "Sluice's client shim only, reply with a SLEEP directive. Control messages (executor registration, ")
        .append("removals, merge finalisation, the shim's HELLO) never reach the gate.\n\n")
        .append("## How it decides\n\n")
        .append(
            "Every knob named below is shown with its default; the prose is generated from the same ")
        .append(
            "declarations as the table, and the sentences that depend on an enum knob follow its default.\n\n")
        .append(signal())
        .append("- **Budget.** While ABNORMAL the node has an in-flight budget B in blocks. ")
        .append(budget())
        .append("\n")
        .append(
            "- **Allowed ranges.** B is split over the active apps (something in flight or held) by priority ")
        .append("weight (")
        .append(k(GateConfig.PRIORITY_WEIGHTS))
        .append("; apps the priority map does not know get ")
        .append(k(GateConfig.DEFAULT_PRIORITY))
        .append("): app i's share is B × w(i) / Σw. Shares that apps with ")
        .append(
            "less demand (outstanding + held blocks) leave unused are redistributed by weight to the others ")
        .append(
            "(water-filling); an app's range is never below its own weighted share. Example: weights 4:1, ")
        .append("B = 100, both busy → 80 and 20 blocks.\n")
        .append(
            "- **Decisions.** A request is in range when its app has nothing in flight (every app always keeps ")
        .append("one request in flight) or ")
        .append(rangeRule())
        .append(", and none of its earlier requests is ")
        .append(
            "held (FIFO per app). In range → ADMIT. Over range → a shim app is paused (SLEEP directives), ")
        .append(
            "else HOLD. A pause lasts as long as the node needs to drain the app's blocks above its range ")
        .append(
            "at the app's share of the node's peak throughput (peak blocks/s × range / B), from ")
        .append(k(GateConfig.SLEEP_MIN_MS))
        .append(" to ")
        .append(k(GateConfig.SLEEP_MAX_MS))
        .append("; one directive asks for the rest of the pause but at most ")
        .append(k(GateConfig.SLEEP_RECHECK_MS))
        .append(
            ", after which the shim re-issues its request: admitted if the app is back in range or the node ")
        .append(
            "no longer ranges apps (the pause ends early; Spark's transport cannot push a message to a client), ")
        .append(
            "else told the rest of the pause. A paused fetch has nothing outstanding at the server, so the ")
        .append("client's idle timeout cannot fail it. New pauses count in a budget of ")
        .append(k(GateConfig.SLEEP_BUDGET_MS))
        .append(" per ")
        .append(k(GateConfig.SLEEP_BUDGET_WINDOW_MS))
        .append(" per app; beyond it the app's requests over range are held. When ")
        .append(k(GateConfig.HELD_MAX))
        .append(", ")
        .append(k(GateConfig.HELD_MAX_BYTES))
        .append(" or ")
        .append(k(GateConfig.HELD_MAX_PER_APP))
        .append(
            " is reached the request is admitted instead (fail-open, counted). A stock Spark client never gets ")
        .append(
            "an error; an exception inside the gate serves the request ungated (counted as `gate-error`).\n")
        .append(pacing())
        .append("- **Holds are bounded.** Each ")
        .append(k(GateConfig.TICK_MS))
        .append(" the gate releases, per app ")
        .append(
            "in arrival order, held requests that are back in range, and every one whose deadline would pass ")
        .append("before the next tick. ")
        .append(holdDeadline())
        .append(" ")
        .append(lanes())
        .append("\n")
        .append("- **Turning NORMAL.** ")
        .append(onNormal())
        .append(" Each ABNORMAL episode's length and the ")
        .append(
            "requests it held are metered (`sluice.throttle.episode.duration`, `sluice.throttle.episode.held`) ")
        .append("and sent as an event when it ends.\n")
        .append(
            "- **Monitor-only.** `mode=MONITOR_ONLY` admits everything but still times, tracks the state and ")
        .append(
            "counts what it would have decided (`sluice.throttle.decisions{enforced=false}`).\n")
        .append(
            "- **Priorities.** Pulled from the tuner-service (`GET <priority.url>/api/v1/throttle/priorities`), ")
        .append("cached and refreshed in the background every ")
        .append(k(GateConfig.PRIORITY_REFRESH_MS))
        .append("; when the source is down for longer than ")
        .append(k(GateConfig.PRIORITY_TTL_MS))
        .append(" every app gets the default priority (fail-open, counted).\n")
        .append("- **Cleanup.** Apps idle for ")
        .append(k(GateConfig.APP_IDLE_TIMEOUT_MS))
        .append(" are forgotten ")
        .append(
            "(a standalone ESS is never told that an application ended); requests never reported finished are ")
        .append("dropped from the books after ")
        .append(k(GateConfig.REQUEST_MAX_AGE_MS))
        .append(".\n\n")
        .append("### Choosing the trigger\n\n")
        .append(
            "With `signal=QUEUEING` nothing needs tuning per fleet: the threshold scales with the node's own ")
        .append("healthy per-block time. ")
        .append(k(GateConfig.QUEUE_FACTOR))
        .append(" says how many healthy block ")
        .append(
            "reads a request may wait before the node counts as distressed (lower: protects sooner, engages on ")
        .append("busier healthy nodes too); ")
        .append(k(GateConfig.QUEUE_MIN_MS))
        .append(" keeps nodes with very ")
        .append("fast disks from engaging on waits nobody notices; ")
        .append(k(GateConfig.ABNORMAL_P99_MS))
        .append(" is the absolute ceiling, for nodes whose baseline itself is slow. Watch ")
        .append(
            "`sluice.throttle.threshold` against `sluice.throttle.latency.p99` on a few nodes before ")
        .append("switching from MONITOR_ONLY to ENFORCE.\n\n")
        .append("## Configuration\n\n")
        .append(
            "Flat keys (for example in the ESS's Spark configuration or the NodeManager's configuration). A key ")
        .append("under `")
        .append(GateConfig.PREFIX)
        .append("` that is not listed here, a value that does not parse ")
        .append(
            "or lies outside its range, `normal.p99Ms` ≥ `abnormal.p99Ms`, `sleep.minMs` > `sleep.maxMs` and ")
        .append("`hold.maxMs` ≤ `tick.ms` fail at start-up with a message naming the key.\n\n")
        .append("| key | default | unit | valid | meaning |\n|---|---|---|---|---|\n");
    for (Knob<?> k : knobs) {
      b.append("| `")
          .append(k.key())
          .append("` | ")
          .append(k.defaultText().isEmpty() ? "(empty)" : cell(k.defaultText()))
          .append(" | ")
          .append(k.unit().label())
          .append(" | ")
          .append(cell(k.range()))
          .append(" | ")
          .append(cell(k.description()))
          .append(" |\n");
    }
    return b.toString();
  }

  /** A knob as the prose names it: its key without the prefix and its default. */
  static String k(Knob<?> knob) {
    String d = knob.defaultText().isEmpty() ? "empty" : knob.defaultText();
    return "`"
        + knob.key().substring(GateConfig.PREFIX.length())
        + "` ("
        + d
        + (knob.unit() == Unit.MILLIS ? " ms" : "")
        + ")";
  }

  private static String pacing() {
    boolean off = GateConfig.PACE_LINGER_MS.defaultValue() == 0;
    String head =
        off
            ? "- **Chunk pacing** is off by default ("
                + k(GateConfig.PACE_LINGER_MS)
                + "): decisions are per request "
                + "only. Set `pace.lingerMs` above 0 to turn it on. What it does when on: deciding"
            : "- **Chunk pacing.** Deciding";
    String linger = off ? "`pace.lingerMs`" : k(GateConfig.PACE_LINGER_MS);
    return head
        + " when a request starts is not enough on a disk-bound node: an admitted "
        + "request's chunk reads still queue at the disk ahead of everyone else's. An app found over its range "
        + "while ABNORMAL, next to an active app within its range (whatever its weight: the over-range app takes "
        + "more than its share from it) or an app of higher weight (active now or within "
        + k(GateConfig.WINDOW_MS)
        + "), is paced until "
        + linger
        + " after it was last over range, also after the "
        + "node turned NORMAL. The ESS adapter parks a paced app's chunk fetches (without holding a server thread) "
        + "while chunks of unpaced apps are being read or sent ("
        + k(GateConfig.PACE_SCOPE)
        + (GateConfig.PACE_SCOPE.defaultValue() == PaceScope.THREAD
            ? ": on the paced chunk's own server thread; a read blocks its thread and the disks serve the "
                + "threads side by side, so a paced read on another thread takes nothing from them. NODE: on any "
                + "thread, for shuffle files on one disk"
            : ": on any server thread, the threads sharing one disk. THREAD: on the paced chunk's own thread")
        + "), lets at most "
        + k(GateConfig.PACE_IN_FLIGHT)
        + " paced chunks out at once (0: one per server thread, spread over the threads), in turns between the "
        + "connections of a thread, and gives a connection one chunk at once, whatever the others do, once "
        + k(GateConfig.PACE_PARK_MAX_MS)
        + " has passed since its last turn (the park budget of a connection: it is "
        + "never left without a byte near the client's idle timeout). A request whose chunk was parked does not feed "
        + "the signal, nor does a request of an app the gate throttles (other requests of it held, its chunks "
        + "paced, or the app over its range): those waits are the gate's doing or the app's own. Meter `sluice.throttle.chunks.parked`.\n";
  }

  private static String signal() {
    boolean queueing = GateConfig.SIGNAL.defaultValue() == Signal.QUEUEING;
    String common =
        "Every request is timed from arrival to its last chunk sent (metered as "
            + "`sluice.throttle.request.latency`). Samples go into a sliding window of "
            + k(GateConfig.WINDOW_MS)
            + " in "
            + k(GateConfig.WINDOW_SLOTS)
            + " time slots, each a fixed log-linear histogram (≤3% error): "
            + "O(1) lock-free recording, bounded memory, old samples forgotten by time.";
    String q =
        "- **Signal ("
            + k(GateConfig.SIGNAL)
            + ").** "
            + common
            + " QUEUEING follows how long requests "
            + "wait before the server starts on them: from arrival (or release from a hold) to the first chunk sent, "
            + "times the share of the node's in-flight blocks that were other apps' when the request started (all of "
            + "it with nothing in flight), so only the wait spent behind other clients' work counts; not counted while "
            + "the gate throttles the app (something else of it held, its chunks paced, or the app over its range when "
            + "the request ends). Large requests served "
            + "promptly, or an app queueing behind its own other connections, do not count as distress, a held app "
            + "queueing behind its own released work does not keep the node ABNORMAL, and neither do two apps over "
            + "their ranges queueing behind each other's backlog (admitted before the gate engaged: the gate already "
            + "holds or pauses their next requests, and their waits say nothing about the apps it protects). The "
            + "threshold is relative to the "
            + "node's own "
            + "healthy per-block service time (the lowest p50 over "
            + k(GateConfig.BASELINE_MS)
            + "): T = max("
            + k(GateConfig.QUEUE_MIN_MS)
            + ", "
            + k(GateConfig.QUEUE_FACTOR)
            + " × baseline), at most "
            + k(GateConfig.ABNORMAL_P99_MS)
            + ".\n"
            + "- **Evidence.** The window weighs its count of waits or, with at least two waits, "
            + "their total wait counted in thresholds (sum / T), whichever is more: a starved client "
            + "sends few requests because each one waits, so three 10 s waits at T = 300 ms weigh "
            + "100 waits, while one wait alone never decides.\n"
            + "- **State with hysteresis.** NORMAL → ABNORMAL when the window weighs at least "
            + k(GateConfig.MIN_SAMPLES)
            + " waits and their p99 ≥ T; back to NORMAL when the p99 < "
            + k(GateConfig.QUEUE_NORMAL_FRACTION)
            + " × T (at most "
            + k(GateConfig.NORMAL_P99_MS)
            + ") or when the window "
            + "weighs less than half of window.minSamples (nobody left to protect).\n";
    String st =
        "- **Signal ("
            + k(GateConfig.SIGNAL)
            + ").** "
            + common
            + " SERVICE_TIME uses the service time "
            + "(stream registered → last chunk sent).\n"
            + "- **State with hysteresis.** NORMAL → ABNORMAL when the window holds at least "
            + k(GateConfig.MIN_SAMPLES)
            + " samples and its p99 ≥ "
            + k(GateConfig.ABNORMAL_P99_MS)
            + "; back to "
            + "NORMAL when the p99 < "
            + k(GateConfig.NORMAL_P99_MS)
            + " (or the node is idle).\n";
    return (queueing ? q : st)
        + "  The other signal (`signal="
        + (queueing ? "SERVICE_TIME" : "QUEUEING")
        + "`) is described in the table.\n";
  }

  private static String budget() {
    if (GateConfig.BUDGET_TARGET_MS.defaultValue() > 0) {
      return "By default Little's law: B = max("
          + k(GateConfig.BUDGET_MIN_BLOCKS)
          + ", peak throughput × "
          + k(GateConfig.BUDGET_TARGET_MS)
          + "), the throughput in blocks sent per second measured every "
          + k(GateConfig.BUDGET_ADAPT_MS)
          + " with a peak decaying by "
          + k(GateConfig.BUDGET_PEAK_DECAY)
          + " per interval. With budget.targetMs=0: B starts at "
          + k(GateConfig.BUDGET_FRACTION)
          + " × the blocks in flight and is multiplied by "
          + k(GateConfig.BUDGET_DECREASE)
          + " / "
          + k(GateConfig.BUDGET_INCREASE)
          + " per adaptation while the signal stays high / is below its threshold.";
    }
    return "B starts at "
        + k(GateConfig.BUDGET_FRACTION)
        + " × the blocks in flight and adapts by "
        + k(GateConfig.BUDGET_DECREASE)
        + " / "
        + k(GateConfig.BUDGET_INCREASE)
        + ".";
  }

  private static String rangeRule() {
    return GateConfig.RANGE_RULE.defaultValue() == RangeRule.BELOW
        ? "its outstanding blocks are below its range ("
            + k(GateConfig.RANGE_RULE)
            + ": one request may "
            + "overshoot it)"
        : "its outstanding blocks plus the request's fit in its range ("
            + k(GateConfig.RANGE_RULE)
            + ")";
  }

  private static String holdDeadline() {
    String plain =
        "A request whose connection the adapter does not name is released by arrival + "
            + k(GateConfig.HOLD_MAX_MS)
            + ".";
    if (GateConfig.HOLD_CONNECTION_IDLE_MS.defaultValue() > 0) {
      return plain
          + " A request on a known connection may stay held until that connection has carried no byte for "
          + k(GateConfig.HOLD_CONNECTION_IDLE_MS)
          + " (Spark's client closes a connection only after its idle "
          + "timeout without a read or a write), at most "
          + k(GateConfig.HOLD_CONNECTION_MAX_MS)
          + " after "
          + "arrival; a quiet connection gets one release per interval.";
    }
    return plain;
  }

  private static String lanes() {
    return GateConfig.LANE_MIN_IN_FLIGHT.defaultValue() > 0
        ? "A server thread with fewer than "
            + k(GateConfig.LANE_MIN_IN_FLIGHT)
            + " requests in flight gets its "
            + "oldest held request released whatever the ranges (work conservation)."
        : "";
  }

  private static String onNormal() {
    return GateConfig.RELEASE_ON_NORMAL.defaultValue() == NormalRelease.BUDGET
        ? "With "
            + k(GateConfig.RELEASE_ON_NORMAL)
            + " the requests still held keep being released within the "
            + "budget and by their deadlines, and apps that still have held work stay within their ranges, until "
            + "none is held; apps with nothing held are admitted freely. So the node turns NORMAL once the waits "
            + "are gone, while a heavy app that still runs stays paced."
        : "With "
            + k(GateConfig.RELEASE_ON_NORMAL)
            + " every held request is released at the next tick.";
  }

  private static String cell(String s) {
    return s.replace("|", "\\|").replace("\n", " ");
  }
}
