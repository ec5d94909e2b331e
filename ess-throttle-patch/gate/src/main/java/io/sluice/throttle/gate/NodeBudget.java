package io.sluice.throttle.gate;

import java.util.Collection;
import java.util.List;

/**
 * The node state and the in-flight budget, and the ranges they give the active apps (tick thread;
 * the state and the budget are read anywhere).
 *
 * <p><b>Allowed ranges (concretely).</b> Work is counted in blocks; an app's outstanding work is
 * the blocks of its admitted requests not yet sent (each {@link Ticket#chunkSent} takes one off,
 * {@link Ticket#finished} the rest). While ABNORMAL the node has an in-flight budget B (blocks):
 *
 * <ul>
 *   <li>default ({@code budget.targetMs} &gt; 0), Little's law: B = max({@code budget.minBlocks},
 *       peak throughput × {@code budget.targetMs}), computed on turning ABNORMAL and every {@code
 *       budget.adaptMs} after. Throughput is the blocks sent (chunks sent, plus the rest of a
 *       request finished ok) per second over the last {@code budget.adaptMs}, measured by {@link
 *       ThrottleGate#tick()} whatever the state; the peak is the larger of the latest interval's
 *       rate and the previous peak × {@code budget.peakDecay}, so a budget that holds the node
 *       below its capacity does not shrink itself with the throughput it suppresses. Meaning: admit
 *       about as much work as the node can send in the target service time;
 *   <li>with {@code budget.targetMs} = 0 (the first policy): on turning ABNORMAL, B = max({@code
 *       budget.minBlocks}, {@code budget.fraction} × blocks in flight at that moment); every {@code
 *       budget.adaptMs} while ABNORMAL: B ×= {@code budget.decrease} while the p99 is still ≥ the
 *       abnormal threshold, B ×= {@code budget.increase} once it is below, B kept within
 *       [minBlocks, max(minBlocks, blocks in flight at onset)];
 *   <li>B is split over the <em>active</em> apps (something in flight or held) by priority weight
 *       w(app) ({@code priority.weights}; unknown apps get {@code priority.default}): app i's
 *       weighted share is B × w(i) / Σw. Shares that apps with less demand (outstanding + held
 *       blocks) do not use are redistributed to the others by weight (water-filling); an app's
 *       range is the larger of its weighted share and its water-filled allocation, so an app whose
 *       demand grows between ticks is never held below its guaranteed share (the cost: in-flight
 *       blocks may overshoot B by the unused shares until the next tick).
 * </ul>
 *
 * A request is in range if its app has nothing in flight (every app always keeps at least one
 * request in flight, whatever its size) or — {@code range.rule} BELOW, the default — the app's
 * outstanding blocks are below its range (so one request may overshoot the range: a request larger
 * than the range is served once the app's earlier work has drained instead of always waiting for
 * its deadline), or — FIT — its outstanding blocks plus the request's fit in the range; and no
 * earlier request of the app is held (FIFO per app). While NORMAL every request is in range.
 *
 * <p><b>Turning NORMAL.</b> With {@code release.onNormal} BUDGET (default) the requests still held
 * keep being released within the in-flight budget (re-computed as while ABNORMAL) and by their
 * deadlines until none is held, then ranges end; an app with nothing held is admitted freely
 * meanwhile. Releasing them all at once (ALL, the first policy) refills the node that has just
 * recovered.
 *
 * <p>Chunk pacing: while ABNORMAL, the active apps over their range are paced for {@code
 * pace.lingerMs} from now when another active app is within its range (whatever its weight: the
 * over-range app takes more than its share from it) or an app of higher weight is active now or was
 * within {@code window.ms}.
 */
final class NodeBudget {
  private final NodeStateDetector detector;
  private final BudgetPolicy policy;
  private final long adaptNanos;
  private final boolean drainOnNormal;

  /** How long an app stays paced after it was last over range; 0: no chunk pacing. */
  private final long paceLingerNanos;

  private final RangeAllocator allocator = new RangeAllocator();
  private double[] weightBuf = new double[64];
  private long[] demandBuf = new long[64];
  private long[] allowedBuf = new long[64];
  private volatile NodeState state = NodeState.NORMAL;
  private volatile long budget = -1;
  private long nextAdapt;

  NodeBudget(GateConfig cfg, NodeStateDetector detector, BudgetPolicy policy, boolean pacing) {
    this.detector = detector;
    this.policy = policy;
    this.adaptNanos = cfg.nanos(GateConfig.BUDGET_ADAPT_MS);
    this.drainOnNormal = cfg.get(GateConfig.RELEASE_ON_NORMAL) == NormalRelease.BUDGET;
    this.paceLingerNanos = pacing ? cfg.nanos(GateConfig.PACE_LINGER_MS) : 0;
  }

  NodeState state() {
    return state;
  }

  /** The in-flight budget in blocks while ranges are in effect, else -1. */
  long budget() {
    return budget;
  }

  /**
   * Whether ranges are in effect (ABNORMAL, or NORMAL while the episode's held requests drain by
   * budget).
   */
  boolean ranged() {
    return budget >= 0;
  }

  /**
   * Whether the node, NORMAL now, turns ABNORMAL at this tick (ask once per tick, before {@link
   * #step}).
   */
  boolean goingAbnormal() {
    return state == NodeState.NORMAL
        && detector.next(NodeState.NORMAL, false) == NodeState.ABNORMAL;
  }

  /**
   * Moves the node state and the budget on by one tick at {@code now}, given the blocks and
   * requests in flight and the requests held; {@code apps} are all the apps (their ranges end when
   * the budget does). Returns the state before.
   */
  NodeState step(
      long now,
      boolean goingAbnormal,
      long totalBlocks,
      long totalReq,
      int held,
      Collection<AppBooks> apps) {
    NodeState before = state;
    if (before == NodeState.NORMAL) {
      if (goingAbnormal) {
        budget = policy.onset(totalBlocks);
        nextAdapt = now + adaptNanos;
        state = NodeState.ABNORMAL;
      } else if (budget >= 0 && (!drainOnNormal || held == 0)) {
        budget = -1; // the requests held over the episode are all out: no more ranges
        unlimit(apps);
      } else if (budget >= 0 && now >= nextAdapt) {
        adapt(now); // still releasing the episode's held requests within the budget
      }
    } else {
      boolean idle = totalReq == 0 && held == 0;
      if (detector.next(NodeState.ABNORMAL, idle) == NodeState.NORMAL) {
        state = NodeState.NORMAL;
        if (!drainOnNormal || held == 0) {
          budget = -1;
        }
      } else if (now >= nextAdapt) {
        adapt(now);
      }
    }
    return before;
  }

  /**
   * Gives the active apps their ranges (and marks chunk pacing, {@code topWeight} being the highest
   * weight of the apps active now or recently), or, if ranges ended at this tick coming from {@code
   * before} ABNORMAL, lifts them.
   */
  void assign(
      List<AppBooks> active,
      double topWeight,
      NodeState before,
      long now,
      Collection<AppBooks> apps) {
    if (budget >= 0) {
      split(active, budget);
      if (state == NodeState.ABNORMAL && paceLingerNanos > 0) {
        markPaced(active, topWeight, now);
      }
    } else if (before == NodeState.ABNORMAL) {
      unlimit(apps);
    }
  }

  private void adapt(long now) {
    budget = policy.adapt(budget, detector.distressed());
    nextAdapt = now + adaptNanos;
  }

  private static void unlimit(Collection<AppBooks> apps) {
    for (AppBooks a : apps) {
      a.allowed = -1;
    }
  }

  private void markPaced(List<AppBooks> active, double top, long now) {
    boolean someoneInRange = false;
    for (AppBooks a : active) {
      if (!PaceRule.overRange(a.allowed, a.outstandingBlocks, a.held)) {
        someoneInRange = true;
        break;
      }
    }
    for (AppBooks a : active) {
      if ((someoneInRange || a.weight < top)
          && PaceRule.overRange(a.allowed, a.outstandingBlocks, a.held)) {
        a.pacedUntil = now + paceLingerNanos;
        a.paced = true;
      }
    }
  }

  /**
   * Splits the budget over the active apps by weight and unused demand (see {@link
   * RangeAllocator}).
   */
  private void split(List<AppBooks> active, long budget) {
    int n = active.size();
    if (weightBuf.length < n) {
      int len = Math.max(n, weightBuf.length * 2);
      weightBuf = new double[len];
      demandBuf = new long[len];
      allowedBuf = new long[len];
    }
    for (int i = 0; i < n; i++) {
      AppBooks a = active.get(i);
      weightBuf[i] = a.weight;
      demandBuf[i] = a.demand;
    }
    allocator.allocate(budget, n, weightBuf, demandBuf, allowedBuf);
    for (int i = 0; i < n; i++) {
      active.get(i).allowed = allowedBuf[i];
    }
  }
}
