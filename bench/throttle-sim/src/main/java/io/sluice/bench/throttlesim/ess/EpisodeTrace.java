package io.sluice.bench.throttlesim.ess;

import io.sluice.throttle.gate.GateConfig;
import io.sluice.throttle.gate.GateSnapshot;
import io.sluice.throttle.gate.ThrottleGate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What one node looked like over one of the gate's hot episodes (begun while a heavy job had
 * requests there), sampled every {@link #EVERY_NANOS} of simulated time: the gate's signal against
 * its thresholds, the budget, and per app on the node its blocks outstanding against its range, its
 * held requests and whether it is paced; plus, per kind of app, the waits the node saw (a request's
 * arrival or release to its first chunk sent) since the last sample. The report prints the episodes
 * that lasted longer than {@link #LONG_NANOS}, to show why they did.
 */
public final class EpisodeTrace {
  /** Sampling interval of simulated time. */
  public static final long EVERY_NANOS = 5_000_000_000L;

  /** Episodes at least this long are kept (the 2-minute target). */
  public static final long LONG_NANOS = 120_000_000_000L;

  /** Kinds of app whose waits are counted, in the order printed. */
  static final List<String> KINDS = List.of("high", "normal", "low", "heavy");

  /** One kept episode. */
  public record Episode(int node, long startNanos, long lengthNanos, List<String> samples) {}

  private final int node;
  private final long startNanos;
  private final List<String> samples = new ArrayList<>();
  private final long[] waits = new long[KINDS.size()];
  private final long[] waitMax = new long[KINDS.size()];
  private long nextSample;

  EpisodeTrace(int node, long startNanos) {
    this.node = node;
    this.startNanos = startNanos;
    this.nextSample = startNanos;
  }

  /** A request of {@code kind} waited {@code nanos} before its first chunk was sent. */
  void waited(String kind, long nanos) {
    int k = KINDS.indexOf(kind);
    if (k >= 0) {
      waits[k]++;
      waitMax[k] = Math.max(waitMax[k], nanos);
    }
  }

  /** Samples {@code gate} if a sample is due at {@code now}. */
  void maybeSample(ThrottleGate gate, long now) {
    if (now < nextSample) {
      return;
    }
    nextSample = now + EVERY_NANOS;
    samples.add(line(gate, now));
    java.util.Arrays.fill(waits, 0);
    java.util.Arrays.fill(waitMax, 0);
  }

  /** The episode ended at {@code end}; null unless it was long enough to keep. */
  Episode end(long end) {
    long length = end - startNanos;
    return length >= LONG_NANOS
        ? new Episode(node, startNanos, length, List.copyOf(samples))
        : null;
  }

  /**
   * One sample: {@code t | p99/T/N | samples | budget | in flight | held | waits | apps}, waits as
   * {@code kind n×max s} and apps as {@code kind-index p<priority> <outstanding>/<range> h<held>}
   * with {@code *} when paced.
   */
  String line(ThrottleGate gate, long now) {
    GateSnapshot s = gate.snapshot();
    long t = gate.abnormalThresholdMillis();
    GateConfig c = gate.config();
    long normal =
        Math.min(
            c.get(GateConfig.NORMAL_P99_MS), (long) (c.get(GateConfig.QUEUE_NORMAL_FRACTION) * t));
    StringBuilder w = new StringBuilder();
    for (int k = 0; k < KINDS.size(); k++) {
      if (waits[k] > 0) {
        w.append(
            String.format(Locale.ROOT, "%s %d×%.1f ", KINDS.get(k), waits[k], waitMax[k] / 1e9));
      }
    }
    StringBuilder a = new StringBuilder();
    List<GateSnapshot.App> apps = new ArrayList<>(s.apps());
    apps.sort(java.util.Comparator.comparing(GateSnapshot.App::appId));
    for (GateSnapshot.App app : apps) {
      if (app.outstandingBlocks() == 0 && app.held() == 0) {
        continue;
      }
      a.append(shortId(app.appId()))
          .append(" p")
          .append(app.priority())
          .append(' ')
          .append(app.outstandingBlocks())
          .append('/')
          .append(app.allowedBlocks() < 0 ? "-" : Long.toString(app.allowedBlocks()))
          .append(app.held() > 0 ? " h" + app.held() : "")
          .append(app.paced() ? "*" : "")
          .append("; ");
    }
    return String.format(
        Locale.ROOT,
        "| %.0f | %s | %d / %d / %d | %d | %d | %d | %d | %s| %s|",
        (now - startNanos) / 1e9,
        s.state() == io.sluice.throttle.gate.NodeState.ABNORMAL ? "A" : "N",
        s.p99Millis(),
        t,
        normal,
        s.samples(),
        s.budgetBlocks(),
        s.inFlightBlocks(),
        s.held(),
        w,
        a);
  }

  /** {@code app-00042-heavy} → {@code heavy-42}. */
  static String shortId(String appId) {
    String[] p = appId.split("-");
    if (p.length == 3) {
      return p[2] + "-" + Integer.parseInt(p[1]);
    }
    return appId;
  }
}
