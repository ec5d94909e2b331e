package io.sluice.throttle.gate;

/**
 * The node's distress as its clients feel it: how long requests wait before the server starts on
 * them, against the node's own healthy speed.
 *
 * <ul>
 *   <li><b>Wait.</b> Per request, from when the server could start on it (its arrival as the
 *       adapter saw it, or its release from a hold) to its first chunk sent, times the share of the
 *       node's in-flight blocks that belonged to other apps when it started (all of it when nothing
 *       was in flight): the part of its wait spent behind other clients' work (other connections'
 *       turns on the server thread, other reads queued at the disk), not behind its own. A heavy
 *       app's requests queued behind its own other connections do not count, so a node serving only
 *       it stays NORMAL however large its requests; a light app's request queued behind the heavy
 *       app's 200 blocks counts almost whole. Not counted at all while the gate throttles the app
 *       (something else of it held, its chunks paced, or the app over its range when the request
 *       ends): once the gate holds a heavy app, that app queueing behind its own released work does
 *       not keep the node ABNORMAL; recovery means the held work no longer hurts the others. Two
 *       heavy apps of one weight whose backlogs were admitted before the gate engaged wait behind
 *       each other for minutes; both are over their ranges, so those waits do not count either:
 *       they are the overload itself, not the apps the gate protects.
 *   <li><b>Baseline.</b> Per-block service time (served → last chunk, over the request's blocks)
 *       feeds {@link HealthyBaseline}: the lowest p50 seen over {@code baseline.ms}.
 *   <li><b>Evidence.</b> The window's weight in waits: its count, or, with at least two waits, its
 *       total wait counted in thresholds (sum / T), whichever is more. A starved client sends few
 *       requests <em>because</em> each one waits: a light app with two executors whose requests
 *       wait 10 s each sends about three in a 30 s window, far below any sample count that guards
 *       against noise, yet it is exactly who the gate is for. Counted in thresholds, three 10 s
 *       waits at T = 300 ms weigh 100 waits; one wait alone never decides.
 *   <li><b>Thresholds.</b> ABNORMAL when the window weighs at least {@code window.minSamples} waits
 *       and their p99 ≥ T = max({@code queue.minMs}, {@code queue.factor} × baseline), but never
 *       above {@code abnormal.p99Ms} (the absolute ceiling: a wait that long is distress on any
 *       hardware). NORMAL again when the p99 falls below {@code queue.normalFraction} × T (at most
 *       {@code normal.p99Ms}), when the window weighs less than half of window.minSamples (nobody
 *       left to protect), or when the node is idle.
 * </ul>
 */
final class QueueingDetector implements NodeStateDetector {
  private final LatencyWindow waits;
  private final LatencyWindow perBlock;
  private final HealthyBaseline baseline;
  private final long minSamples;
  private final long floorMicros;
  private final double factor;
  private final double normalFraction;
  private final long ceilingMicros;
  private final long normalCeilingMicros;
  private volatile LatencyWindow.Stats stats = LatencyWindow.Stats.EMPTY;
  private volatile long thresholdMicros;
  private long lastBaseline = Long.MIN_VALUE / 2;
  private static final long BASELINE_EVERY_NANOS = 1_000_000_000L;

  QueueingDetector(GateConfig cfg, long now) {
    int slots = (int) (long) cfg.get(GateConfig.WINDOW_SLOTS);
    long span = cfg.nanos(GateConfig.WINDOW_MS);
    this.waits = new LatencyWindow(slots, span);
    this.perBlock = new LatencyWindow(slots, span);
    this.waits.advance(now);
    this.perBlock.advance(now);
    this.baseline = new HealthyBaseline(cfg.nanos(GateConfig.BASELINE_MS));
    this.minSamples = cfg.get(GateConfig.MIN_SAMPLES);
    this.floorMicros = cfg.get(GateConfig.QUEUE_MIN_MS) * 1_000;
    this.factor = cfg.get(GateConfig.QUEUE_FACTOR);
    this.normalFraction = cfg.get(GateConfig.QUEUE_NORMAL_FRACTION);
    this.ceilingMicros = cfg.get(GateConfig.ABNORMAL_P99_MS) * 1_000;
    this.normalCeilingMicros = cfg.get(GateConfig.NORMAL_P99_MS) * 1_000;
    this.thresholdMicros = threshold(-1);
  }

  @Override
  public void record(long waitNanos, long serviceNanos, int blocks, boolean counted) {
    if (counted) {
      waits.record(Math.max(0, waitNanos));
    }
    perBlock.record(serviceNanos / Math.max(1, blocks));
  }

  @Override
  public void update(long now) {
    waits.advance(now);
    if (now - lastBaseline >= BASELINE_EVERY_NANOS) {
      // the baseline moves by the minute: a look a second is plenty, and halves the tick's
      // histogram merges
      lastBaseline = now;
      perBlock.advance(now);
      baseline.observe(perBlock.compute().p50Micros(), now);
      thresholdMicros = threshold(baseline.micros());
    }
    stats = waits.compute();
  }

  private long threshold(long baselineMicros) {
    long relative = baselineMicros < 0 ? 0 : (long) (factor * baselineMicros);
    return Math.min(ceilingMicros, Math.max(floorMicros, relative));
  }

  @Override
  public NodeState next(NodeState current, boolean idle) {
    LatencyWindow.Stats s = stats;
    long t = thresholdMicros;
    if (current == NodeState.NORMAL) {
      return weight(s, t) >= minSamples && s.p99Micros() >= t
          ? NodeState.ABNORMAL
          : NodeState.NORMAL;
    }
    long normal = Math.min(normalCeilingMicros, (long) (normalFraction * t));
    // fewer waits than half of window.minSamples: nobody left to protect (half, not all: a window
    // whose count
    // hovers at minSamples as its slots turn over would flip the state back and forth)
    boolean calm = weight(s, t) < Math.max(1, minSamples / 2) || s.p99Micros() < normal;
    return calm || (idle && s.samples() == 0) ? NodeState.NORMAL : NodeState.ABNORMAL;
  }

  @Override
  public Boolean distressed() {
    LatencyWindow.Stats s = stats;
    long t = thresholdMicros;
    return weight(s, t) >= minSamples ? s.p99Micros() >= t : null;
  }

  /**
   * The window's evidence in waits: its sample count, or with at least two samples its total wait
   * in units of the threshold {@code t} (µs), whichever is larger.
   */
  static double weight(LatencyWindow.Stats s, long t) {
    if (s.samples() < 2) {
      return s.samples();
    }
    return Math.max(s.samples(), s.sumMicros() / (double) Math.max(1, t));
  }

  @Override
  public LatencyWindow.Stats shown() {
    return stats;
  }

  @Override
  public long abnormalMicros() {
    return thresholdMicros;
  }

  /** The healthy per-block service time (µs) the threshold is relative to; -1: none yet. */
  long baselineMicros() {
    return baseline.micros();
  }
}
