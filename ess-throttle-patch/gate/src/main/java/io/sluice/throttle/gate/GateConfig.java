package io.sluice.throttle.gate;

import static io.sluice.config.Unit.BLOCKS;
import static io.sluice.config.Unit.BYTES;
import static io.sluice.config.Unit.COUNT;
import static io.sluice.config.Unit.FACTOR;
import static io.sluice.config.Unit.FRACTION;
import static io.sluice.config.Unit.MILLIS;
import static io.sluice.config.Unit.PRIORITY;

import io.sluice.config.Catalogue;
import io.sluice.config.Setting;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * The gate's configuration: every knob is declared exactly once below (key, unit, default, valid
 * range, meaning); {@code docs/throttle.md} is generated from {@link #KNOBS}. Immutable; {@link
 * #defaults()}, {@link #fromMap(Map)} (keys outside {@value #PREFIX} are ignored, an unknown key
 * under it or a bad value fails with a message naming the key) and {@link #with(Knob, Object)} for
 * programmatic overrides.
 */
public final class GateConfig {
  /** Every key starts with this. */
  public static final String PREFIX = "sluice.throttle.";

  public static final Knob<GateMode> MODE =
      Knob.enumKnob(
          "mode",
          GateMode.class,
          GateMode.ENFORCE,
          "ENFORCE acts on decisions; MONITOR_ONLY admits everything but still times requests, tracks the node state and "
              + "counts the decisions it would have made (the YARN adapter falls back to it when it cannot hook in).");
  public static final Knob<Signal> SIGNAL =
      Knob.enumKnob(
          "signal",
          Signal.class,
          Signal.QUEUEING,
          "What drives the node state. QUEUEING: the p99 wait before the server starts on a request (arrival or release "
              + "→ first chunk sent, the share of it spent behind other apps' in-flight blocks) against queue.factor × the node's healthy "
              + "per-block service time, at least queue.minMs and at most abnormal.p99Ms. SERVICE_TIME (the first "
              + "signal): the p99 of whole-request service time (served → last chunk sent) against abnormal.p99Ms / "
              + "normal.p99Ms; it measures request size as much as distress.");
  public static final Knob<Long> ABNORMAL_P99_MS =
      Knob.longKnob(
          "abnormal.p99Ms",
          MILLIS,
          10_000,
          1,
          3_600_000,
          "signal=SERVICE_TIME: the node turns ABNORMAL when the p99 service time over the latency window reaches this. "
              + "signal=QUEUEING: the ceiling of the relative wait threshold (a p99 wait this long is distress on any "
              + "hardware).");
  public static final Knob<Long> NORMAL_P99_MS =
      Knob.longKnob(
          "normal.p99Ms",
          MILLIS,
          5_000,
          0,
          3_600_000,
          "signal=SERVICE_TIME: an ABNORMAL node turns NORMAL again when the window's p99 falls below this (must be lower "
              + "than abnormal.p99Ms: the gap is the hysteresis). signal=QUEUEING: the ceiling of the NORMAL threshold.");
  public static final Knob<Long> QUEUE_MIN_MS =
      Knob.longKnob(
          "queue.minMs",
          MILLIS,
          100,
          1,
          3_600_000,
          "signal=QUEUEING: the ABNORMAL wait threshold is never below this (a node whose healthy per-block time is a "
              + "fraction of a millisecond, or that has no baseline yet, is not distressed by waits of a few ms).");
  public static final Knob<Double> QUEUE_FACTOR =
      Knob.doubleKnob(
          "queue.factor",
          FACTOR,
          30.0,
          1.0,
          100_000.0,
          "signal=QUEUEING: the node turns ABNORMAL when the window's p99 wait reaches this many times its healthy "
              + "per-block service time (the baseline), i.e. when a request waits as long as this many blocks take to "
              + "read on this node when it is healthy.");
  public static final Knob<Double> QUEUE_NORMAL_FRACTION =
      Knob.doubleKnob(
          "queue.normalFraction",
          FRACTION,
          0.5,
          0.01,
          0.99,
          "signal=QUEUEING: an ABNORMAL node turns NORMAL once the p99 wait is below this fraction of the "
              + "ABNORMAL threshold (the hysteresis), or once the window weighs less than half of window.minSamples "
              + "waits.");
  public static final Knob<Long> BASELINE_MS =
      Knob.longKnob(
          "baseline.ms",
          MILLIS,
          600_000,
          1_000,
          86_400_000,
          "signal=QUEUEING: the healthy baseline is the lowest p50 per-block service time (served → last chunk sent, "
              + "divided by the request's blocks) seen over this long.");
  public static final Knob<Long> WINDOW_MS =
      Knob.longKnob(
          "window.ms",
          MILLIS,
          30_000,
          100,
          3_600_000,
          "Length of the sliding window of recent service times the percentiles are computed over.");
  public static final Knob<Long> WINDOW_SLOTS =
      Knob.longKnob(
          "window.slots",
          COUNT,
          6,
          1,
          120,
          "The window is a ring of this many time slots (each window.ms / window.slots long) of fixed-size log-linear "
              + "histograms; the oldest slot is dropped as time advances.");
  public static final Knob<Long> MIN_SAMPLES =
      Knob.longKnob(
          "window.minSamples",
          COUNT,
          20,
          1,
          1_000_000,
          "No state change unless the window weighs at least this many samples; with signal=QUEUEING, at least two "
              + "waits whose total counted in ABNORMAL thresholds reaches it weigh as much (an idle node with nothing in "
              + "flight and nothing held returns to NORMAL).");
  public static final Knob<Long> TICK_MS =
      Knob.longKnob(
          "tick.ms",
          MILLIS,
          100,
          1,
          10_000,
          "How often the adapter calls tick(): node state, allowed ranges, releases of held requests, idle cleanup.");
  public static final Knob<Long> HOLD_MAX_MS =
      Knob.longKnob(
          "hold.maxMs",
          MILLIS,
          20_000,
          1,
          100_000,
          "A held request is released at the latest this long after it arrived (well inside Spark's 120 s "
              + "spark.network.timeout, so a stock client never times out because of a hold).");
  public static final Knob<Long> HOLD_CONNECTION_IDLE_MS =
      Knob.longKnob(
          "hold.connectionIdleMs",
          MILLIS,
          100_000,
          0,
          3_600_000,
          "Activity-aware holds, for requests whose connection the adapter names: such a request may stay held "
              + "past hold.maxMs until its connection has carried no byte for this long; then the oldest request held on "
              + "that connection is released (one per connection and interval), so the connection never stays silent "
              + "for the client's idle timeout. Spark's client closes a connection only after its "
              + "spark.shuffle.io.connectionTimeout (spark.network.timeout, 120 s by default) without a read or a write; "
              + "set this to that timeout minus a margin for the queueing after a release (default 120 s - 20 s). A "
              + "client configured with a shorter timeout needs a lower value. 0: off, every hold ends by hold.maxMs.");
  public static final Knob<Long> HOLD_CONNECTION_MAX_MS =
      Knob.longKnob(
          "hold.connectionMaxMs",
          MILLIS,
          300_000,
          1,
          3_600_000,
          "With activity-aware holds: a held request is released at the latest this long after it arrived, "
              + "even while its connection keeps carrying other traffic (the starvation bound of those holds).");
  public static final Knob<Long> HELD_MAX =
      Knob.longKnob(
          "held.max",
          COUNT,
          10_000,
          0,
          10_000_000,
          "Memory bound: at most this many requests held on the node; beyond it requests are admitted (fail-open, "
              + "counted).");
  public static final Knob<Long> HELD_MAX_BYTES =
      Knob.longKnob(
          "held.maxBytes",
          BYTES,
          64L << 20,
          0,
          1L << 40,
          "Memory bound in bytes: held requests keep a copy of their request message; beyond this many bytes "
              + "held on the node new requests are admitted (fail-open, counted).");
  public static final Knob<Long> HELD_MAX_PER_APP =
      Knob.longKnob(
          "held.maxPerApp",
          COUNT,
          2_000,
          0,
          10_000_000,
          "Memory bound per application: at most this many of its requests held; beyond it they are admitted (fail-open, "
              + "counted).");
  public static final Knob<Double> BUDGET_FRACTION =
      Knob.doubleKnob(
          "budget.fraction",
          FRACTION,
          0.5,
          0.01,
          1.0,
          "Only with budget.targetMs=0: when the node turns ABNORMAL its in-flight budget starts at this fraction of the "
              + "blocks in flight at that moment.");
  public static final Knob<Long> BUDGET_MIN_BLOCKS =
      Knob.longKnob(
          "budget.minBlocks",
          BLOCKS,
          64,
          1,
          100_000_000,
          "The in-flight budget never goes below this many blocks.");
  public static final Knob<Long> BUDGET_ADAPT_MS =
      Knob.longKnob(
          "budget.adaptMs",
          MILLIS,
          5_000,
          1,
          3_600_000,
          "While ABNORMAL the budget is re-computed every this often (the throughput behind budget.targetMs is measured "
              + "over this interval); with budget.targetMs=0 it is multiplied by budget.decrease while the p99 is still at "
              + "or above abnormal.p99Ms, by budget.increase once it is below.");
  public static final Knob<Double> BUDGET_DECREASE =
      Knob.doubleKnob(
          "budget.decrease",
          FACTOR,
          0.8,
          0.05,
          1.0,
          "Only with budget.targetMs=0: multiplicative budget decrease per adaptation while latency stays high.");
  public static final Knob<Double> BUDGET_INCREASE =
      Knob.doubleKnob(
          "budget.increase",
          FACTOR,
          1.25,
          1.0,
          10.0,
          "Only with budget.targetMs=0: multiplicative budget increase per adaptation while latency is improving (below "
              + "abnormal.p99Ms).");
  public static final Knob<Long> BUDGET_TARGET_MS =
      Knob.longKnob(
          "budget.targetMs",
          MILLIS,
          2_500,
          0,
          3_600_000,
          "Little's law budget: while ABNORMAL the in-flight budget is the node's peak measured throughput (blocks per "
              + "second, measured every budget.adaptMs, the peak decaying by budget.peakDecay per interval) times this "
              + "target service time, at least budget.minBlocks; re-computed every budget.adaptMs. 0: the budget starts "
              + "at budget.fraction of the blocks in flight and adapts by budget.decrease / budget.increase instead "
              + "(those three knobs apply only when this is 0).");
  public static final Knob<Double> BUDGET_PEAK_DECAY =
      Knob.doubleKnob(
          "budget.peakDecay",
          FACTOR,
          0.9,
          0.0,
          1.0,
          "Per budget.adaptMs interval the remembered peak throughput decays by this factor unless the latest interval "
              + "measured more (so a budget that throttles the node cannot talk itself down to nothing).");
  public static final Knob<RangeRule> RANGE_RULE =
      Knob.enumKnob(
          "range.rule",
          RangeRule.class,
          RangeRule.BELOW,
          "BELOW: a request is in range while its app's outstanding blocks are below the app's range (one request may "
              + "overshoot it); FIT: only if the outstanding blocks plus the request's fit in the range (a request "
              + "larger than the range then always waits for its deadline).");
  public static final Knob<Long> LANE_MIN_IN_FLIGHT =
      Knob.longKnob(
          "lane.minInFlight",
          COUNT,
          1,
          0,
          1_000,
          "Work conservation per server thread, for requests whose connection the adapter names with its thread (Lane): "
              + "while requests pinned to a thread are held, the gate keeps at least this many requests in flight on it, "
              + "releasing the thread's oldest held request whatever the ranges (a chunk can only be served on its "
              + "connection's thread, so a budget that is large enough in total can still leave threads idle). 0: off.");
  public static final Knob<NormalRelease> RELEASE_ON_NORMAL =
      Knob.enumKnob(
          "release.onNormal",
          NormalRelease.class,
          NormalRelease.BUDGET,
          "When the node turns NORMAL with requests still held: BUDGET keeps releasing them within "
              + "the in-flight budget (re-computed as while ABNORMAL) and by their deadlines until none is held, while apps "
              + "with nothing held are admitted freely; ALL releases every one at the next tick (which refills the node "
              + "that has just recovered).");
  public static final Knob<Long> PACE_LINGER_MS =
      Knob.longKnob(
          "pace.lingerMs",
          MILLIS,
          120_000,
          0,
          3_600_000,
          "Chunk pacing: an app found over its range while ABNORMAL, next to an active app within its range or an app of "
              + "higher priority weight, is "
              + "paced for this long after it was last over range (also after the node turned NORMAL, so that the "
              + "recovered node is not refilled at once). A paced app's chunk fetches wait while chunks of unpaced apps "
              + "are being read on the same server thread (pace.scope). 0: no chunk pacing (decisions per request "
              + "only). On the fleet simulation pacing per thread halves high-priority completion on hot nodes at no "
              + "loss of node throughput (the throttled jobs' median completion equals stock's).");
  public static final Knob<Long> PACE_IN_FLIGHT =
      Knob.longKnob(
          "pace.inFlight",
          COUNT,
          0,
          0,
          1_000,
          "Chunk pacing: chunks of paced apps being read or sent on the node at once (all paced apps together); an "
              + "unpaced app's read waits behind at most this many of theirs. 0: one per server thread, spread over the "
              + "threads (a thread then has at most one paced read ahead of an unpaced one, and the paced app keeps every "
              + "thread busy while nobody else needs the node). On a node whose shuffle files sit on one disk, 1 keeps "
              + "the unpaced app's reads behind at most one paced read at that disk.");
  public static final Knob<PaceScope> PACE_SCOPE =
      Knob.enumKnob(
          "pace.scope",
          PaceScope.class,
          PaceScope.THREAD,
          "Chunk pacing: where a paced chunk looks for unpaced work before it goes. THREAD: it waits while its own "
              + "server thread has chunks of unpaced apps queued or being read (a read blocks its thread and the "
              + "node's disks serve the threads side by side, so a paced read on another thread takes nothing from "
              + "them, and threads nobody else needs stay busy). NODE: it waits while any thread has (the node's "
              + "shuffle files sit on one device every thread's reads queue at).");
  public static final Knob<Long> PACE_PARK_MAX_MS =
      Knob.longKnob(
          "pace.parkMaxMs",
          MILLIS,
          10_000,
          1,
          60_000,
          "Chunk pacing: the park budget of one connection: a connection whose chunk fetches stay parked gets a turn "
              + "(one chunk goes at once, whatever the others do and whatever is in flight) once this long has passed "
              + "since its last turn or its first parked chunk; then its clock starts again. So parking never leaves a "
              + "connection without a byte for longer than this plus one read, far inside the client's 120 s "
              + "spark.network.timeout, and an overdue request's chunks go one at a time instead of flooding its thread.");
  public static final Knob<Long> PACE_ANTICIPATE_MS =
      Knob.longKnob(
          "pace.anticipateMs",
          MILLIS,
          10,
          0,
          1_000,
          "Chunk pacing: after the last chunk of unpaced apps in a paced chunk's scope (pace.scope) was sent, paced "
              + "chunks stay parked this much longer, in case the unpaced app's next chunk follows (a client's chunk "
              + "fetches reach the server one after another, so between two of them the scope is briefly free; a "
              + "paced read let out in that gap puts every unpaced read behind one of its own). A disk scheduler's "
              + "idle slice. Only after unpaced work: with no unpaced app active, paced chunks never wait for it. "
              + "0: off.");
  public static final Knob<Long> SLEEP_MIN_MS =
      Knob.longKnob(
          "sleep.minMs",
          MILLIS,
          200,
          1,
          600_000,
          "Shortest pause a SLEEP directive starts (an app whose over-range blocks the node drains at once).");
  public static final Knob<Long> SLEEP_MAX_MS =
      Knob.longKnob(
          "sleep.maxMs",
          MILLIS,
          120_000,
          1,
          600_000,
          "Longest pause of a shim app. A pause lasts as long as the node needs to drain the app's blocks above its "
              + "range at the app's share of the node's throughput (peak blocks/s × range / budget), between "
              + "sleep.minMs and this; it ends early once the app is back in range or the node no longer ranges apps "
              + "(the app's next request, at the latest sleep.recheckMs later, is admitted).");
  public static final Knob<Long> SLEEP_RECHECK_MS =
      Knob.longKnob(
          "sleep.recheckMs",
          MILLIS,
          10_000,
          1,
          600_000,
          "Longest single SLEEP directive: a paused shim app is told to sleep the rest of its pause but at most this "
              + "long, then re-asks (its request is re-issued) and is told the rest again while the pause lasts. So a "
              + "pause ends within this long of the node turning NORMAL or the app falling back in range (Spark's "
              + "transport cannot push a message to the client), and a paused fetch, which has nothing outstanding at "
              + "the server, sends a request at least this often.");
  public static final Knob<Long> SLEEP_BUDGET_MS =
      Knob.longKnob(
          "sleep.budgetMs",
          MILLIS,
          180_000,
          0,
          86_400_000,
          "Per-app pause budget: once the pauses an app was given (each counted whole when it starts) add up to "
              + "this within sleep.budgetWindowMs, its requests over range are HELD instead, so directives can never "
              + "starve a shim app.");
  public static final Knob<Long> SLEEP_BUDGET_WINDOW_MS =
      Knob.longKnob(
          "sleep.budgetWindowMs",
          MILLIS,
          300_000,
          1,
          86_400_000,
          "Sliding window of the per-app pause budget.");
  public static final Knob<String> PRIORITY_WEIGHTS =
      Knob.textKnob(
          "priority.weights",
          "1:1,2:2,3:4,4:8",
          "priority:weight,...",
          "Weight of each priority in the split of the budget (an app's allowed range is budget × "
              + "weight / sum of the active apps' weights). A priority not listed takes the weight of the nearest listed "
              + "one.",
          GateConfig::checkWeights);
  public static final Knob<Long> DEFAULT_PRIORITY =
      Knob.longKnob(
          "priority.default",
          PRIORITY,
          2,
          -1_000,
          1_000,
          "Priority of apps the priority map does not know (and of every app while the priority source is down).");
  public static final Knob<String> PRIORITY_URL =
      Knob.textKnob(
          "priority.url",
          "",
          "URL or empty",
          "Base URL of the tuner-service; the gate pulls GET <url>/api/v1/throttle/priorities. Empty: every app gets the "
              + "default priority.",
          GateConfig::checkUrl);
  public static final Knob<Long> PRIORITY_REFRESH_MS =
      Knob.longKnob(
          "priority.refreshMs",
          MILLIS,
          30_000,
          100,
          86_400_000,
          "How often the priority map is refreshed from its source (in the background).");
  public static final Knob<Long> PRIORITY_TTL_MS =
      Knob.longKnob(
          "priority.ttlMs",
          MILLIS,
          300_000,
          100,
          86_400_000,
          "A priority snapshot older than this (the source has been failing) is dropped: every app gets the default "
              + "priority (fail-open, counted).");
  public static final Knob<Long> PRIORITY_TIMEOUT_MS =
      Knob.longKnob(
          "priority.timeoutMs",
          MILLIS,
          2_000,
          1,
          600_000,
          "Connect and request timeout of one priority fetch.");
  public static final Knob<Long> APP_IDLE_TIMEOUT_MS =
      Knob.longKnob(
          "app.idleTimeoutMs",
          MILLIS,
          600_000,
          1,
          86_400_000,
          "An app with nothing in flight and nothing held for this long is forgotten (a standalone ESS is "
              + "never told that an application ended).");
  public static final Knob<Long> REQUEST_MAX_AGE_MS =
      Knob.longKnob(
          "request.maxAgeMs",
          MILLIS,
          600_000,
          1,
          86_400_000,
          "Safety net: a request admitted this long ago and never reported finished is taken off its app's "
              + "outstanding work (counted as lost), so a leaked ticket cannot throttle its app forever.");
  public static final Knob<Long> TEST_IO_DELAY_MS =
      Knob.longKnob(
          "test.ioDelayMs",
          MILLIS,
          0,
          0,
          600_000,
          "Test only: the ESS adapter delays each chunk by this much to emulate a slow disk. Keep 0 in production.");
  public static final Knob<TestDisk> TEST_IO_MODEL =
      Knob.enumKnob(
          "test.ioModel",
          TestDisk.class,
          TestDisk.SHARED_DISK,
          "Test only, with test.ioDelayMs > 0: SHARED_DISK emulates one device that every server "
              + "thread shares (a single first-come-first-served queue of reads, as a spindle serves its seeks); "
              + "PER_THREAD sleeps on each serving thread separately (the threads, not the disk, are the bottleneck).");

  /** Every knob, in documentation order. */
  public static final List<Knob<?>> KNOBS =
      List.of(
          MODE,
          SIGNAL,
          ABNORMAL_P99_MS,
          NORMAL_P99_MS,
          QUEUE_MIN_MS,
          QUEUE_FACTOR,
          QUEUE_NORMAL_FRACTION,
          BASELINE_MS,
          WINDOW_MS,
          WINDOW_SLOTS,
          MIN_SAMPLES,
          TICK_MS,
          HOLD_MAX_MS,
          HOLD_CONNECTION_IDLE_MS,
          HOLD_CONNECTION_MAX_MS,
          HELD_MAX,
          HELD_MAX_BYTES,
          HELD_MAX_PER_APP,
          BUDGET_FRACTION,
          BUDGET_MIN_BLOCKS,
          BUDGET_ADAPT_MS,
          BUDGET_DECREASE,
          BUDGET_INCREASE,
          BUDGET_TARGET_MS,
          BUDGET_PEAK_DECAY,
          RANGE_RULE,
          LANE_MIN_IN_FLIGHT,
          RELEASE_ON_NORMAL,
          PACE_LINGER_MS,
          PACE_IN_FLIGHT,
          PACE_SCOPE,
          PACE_PARK_MAX_MS,
          PACE_ANTICIPATE_MS,
          SLEEP_MIN_MS,
          SLEEP_MAX_MS,
          SLEEP_RECHECK_MS,
          SLEEP_BUDGET_MS,
          SLEEP_BUDGET_WINDOW_MS,
          PRIORITY_WEIGHTS,
          DEFAULT_PRIORITY,
          PRIORITY_URL,
          PRIORITY_REFRESH_MS,
          PRIORITY_TTL_MS,
          PRIORITY_TIMEOUT_MS,
          APP_IDLE_TIMEOUT_MS,
          REQUEST_MAX_AGE_MS,
          TEST_IO_DELAY_MS,
          TEST_IO_MODEL);

  private static final Map<String, Knob<?>> BY_KEY;

  static {
    Map<String, Knob<?>> m = new LinkedHashMap<>();
    for (Knob<?> k : KNOBS) {
      if (m.put(k.key(), k) != null) {
        throw new IllegalStateException("duplicate knob " + k.key());
      }
    }
    BY_KEY = Collections.unmodifiableMap(m);
  }

  /** The gate's knobs as the configuration reference lists them. */
  public static final Catalogue CATALOGUE =
      Catalogue.of(
          "ESS throttle gate",
          "Flat keys in the shuffle service's "
              + "configuration: the standalone ESS's Spark conf (`spark."
              + PREFIX
              + "…`, or JVM system properties `"
              + PREFIX
              + "…`) or the NodeManager's yarn-site.xml (`spark."
              + PREFIX
              + "…`). How the knobs act together: "
              + "[throttle.md](throttle.md).",
          KNOBS);

  private static final GateConfig DEFAULTS = new GateConfig(new LinkedHashMap<>());

  private final Map<Knob<?>, Object> values;
  private final NavigableMap<Integer, Double> weights;

  private GateConfig(Map<Knob<?>, Object> overrides) {
    Map<Knob<?>, Object> v = new LinkedHashMap<>();
    for (Knob<?> k : KNOBS) {
      v.put(k, overrides.containsKey(k) ? overrides.get(k) : k.defaultValue());
    }
    this.values = Collections.unmodifiableMap(v);
    this.weights = parseWeights(get(PRIORITY_WEIGHTS));
    if (get(NORMAL_P99_MS) >= get(ABNORMAL_P99_MS)) {
      throw new IllegalArgumentException(
          NORMAL_P99_MS.key()
              + "="
              + get(NORMAL_P99_MS)
              + " must be lower than "
              + ABNORMAL_P99_MS.key()
              + "="
              + get(ABNORMAL_P99_MS)
              + " (hysteresis)");
    }
    if (get(SLEEP_MIN_MS) > get(SLEEP_MAX_MS)) {
      throw new IllegalArgumentException(
          SLEEP_MIN_MS.key()
              + "="
              + get(SLEEP_MIN_MS)
              + " must not exceed "
              + SLEEP_MAX_MS.key()
              + "="
              + get(SLEEP_MAX_MS));
    }
    if (get(HOLD_MAX_MS) <= get(TICK_MS)) {
      throw new IllegalArgumentException(
          HOLD_MAX_MS.key()
              + "="
              + get(HOLD_MAX_MS)
              + " must be longer than "
              + TICK_MS.key()
              + "="
              + get(TICK_MS));
    }
  }

  /** All defaults. */
  public static GateConfig defaults() {
    return DEFAULTS;
  }

  /**
   * From flat properties: keys starting with {@value #PREFIX} must name a knob (a typo fails
   * instead of being ignored); other keys are ignored, so a whole daemon configuration can be
   * passed in.
   */
  public static GateConfig fromMap(Map<String, String> props) {
    Map<Knob<?>, Object> o = new LinkedHashMap<>();
    for (Map.Entry<String, String> e : new TreeMap<>(props).entrySet()) {
      if (!e.getKey().startsWith(PREFIX)) {
        continue;
      }
      Knob<?> k = BY_KEY.get(e.getKey());
      if (k == null) {
        throw new IllegalArgumentException(
            "unknown gate configuration key "
                + e.getKey()
                + " (known: "
                + String.join(", ", BY_KEY.keySet())
                + ")");
      }
      o.put(k, k.parse(e.getValue()));
    }
    return new GateConfig(o);
  }

  /** A copy with one knob changed (validated like a configured value). */
  public <T> GateConfig with(Knob<T> knob, T value) {
    Objects.requireNonNull(value, knob.key());
    Map<Knob<?>, Object> o = new LinkedHashMap<>(values);
    o.put(knob, knob.parse(value instanceof Double d ? Double.toString(d) : value.toString()));
    return new GateConfig(o);
  }

  /** The knob's value. */
  @SuppressWarnings("unchecked")
  public <T> T get(Knob<T> knob) {
    return (T) values.get(knob);
  }

  /** Every knob with its value, in declaration order, as properties. */
  public Map<String, String> asMap() {
    Map<String, String> m = new LinkedHashMap<>();
    values.forEach(
        (k, v) -> m.put(k.key(), v instanceof Double d ? Setting.plain(d) : String.valueOf(v)));
    return m;
  }

  /** Nanoseconds of a millisecond knob. */
  public long nanos(Knob<Long> millisKnob) {
    return TimeUnit.MILLISECONDS.toNanos(get(millisKnob));
  }

  public GateMode mode() {
    return get(MODE);
  }

  public int defaultPriority() {
    return (int) (long) get(DEFAULT_PRIORITY);
  }

  /**
   * The weight of a priority: its own, or the nearest listed priority's (the lower one on a tie).
   */
  public double weight(int priority) {
    Map.Entry<Integer, Double> lo = weights.floorEntry(priority);
    Map.Entry<Integer, Double> hi = weights.ceilingEntry(priority);
    if (lo == null) {
      return hi.getValue();
    }
    if (hi == null || priority - lo.getKey() <= hi.getKey() - priority) {
      return lo.getValue();
    }
    return hi.getValue();
  }

  private static String checkUrl(String raw) {
    if (raw.isEmpty()) {
      return raw;
    }
    java.net.URI u;
    try {
      u = java.net.URI.create(raw);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("not a URL");
    }
    if (!("http".equals(u.getScheme()) || "https".equals(u.getScheme())) || u.getHost() == null) {
      throw new IllegalArgumentException("not an http(s) URL with a host");
    }
    return raw;
  }

  private static String checkWeights(String raw) {
    parseWeights(raw);
    return raw;
  }

  private static NavigableMap<Integer, Double> parseWeights(String raw) {
    NavigableMap<Integer, Double> m = new TreeMap<>();
    for (String part : raw.split(",")) {
      String p = part.trim();
      int c = p.indexOf(':');
      if (c <= 0) {
        throw new IllegalArgumentException("'" + p + "' is not priority:weight");
      }
      int prio;
      double w;
      try {
        prio = Integer.parseInt(p.substring(0, c).trim());
        w = Double.parseDouble(p.substring(c + 1).trim());
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("'" + p + "' is not priority:weight");
      }
      if (!(w > 0) || Double.isInfinite(w)) {
        throw new IllegalArgumentException(
            "weight of priority " + prio + " must be positive, was " + w);
      }
      if (m.put(prio, w) != null) {
        throw new IllegalArgumentException("priority " + prio + " listed twice");
      }
    }
    return m;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof GateConfig g && g.values.equals(values);
  }

  @Override
  public int hashCode() {
    return values.hashCode();
  }

  @Override
  public String toString() {
    return "GateConfig" + asMap();
  }
}
