package io.sluice.throttle.gate;

import java.util.Collection;
import java.util.List;

/**
 * The node state and the in-flight budget, and the ranges they give the active apps (tick thread; the state and the
 * budget are read anywhere). On turning ABNORMAL the {@link BudgetPolicy} sets the budget B from the blocks in
 * flight, and re-computes it every {@code budget.adaptMs} while it is in effect. B is split over the active apps by
 * priority weight ({@link RangeAllocator}). When the node turns NORMAL, with {@code release.onNormal} BUDGET the
 * ranges stay until nothing is held any more (the episode's held requests keep being released within the budget);
 * with ALL they end at once. Apps created while NORMAL start unlimited.
 *
 * <p>Chunk pacing: while ABNORMAL, the active apps over their range next to an app of higher weight (active now or
 * within {@code window.ms}) are paced for {@code pace.lingerMs} from now.
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

  /** Whether ranges are in effect (ABNORMAL, or NORMAL while the episode's held requests drain by budget). */
  boolean ranged() {
    return budget >= 0;
  }

  /** Whether the node, NORMAL now, turns ABNORMAL at this tick (ask once per tick, before {@link #step}). */
  boolean goingAbnormal() {
    return state == NodeState.NORMAL && detector.next(NodeState.NORMAL, false) == NodeState.ABNORMAL;
  }

  /**
   * Moves the node state and the budget on by one tick at {@code now}, given the blocks and requests in flight and
   * the requests held; {@code apps} are all the apps (their ranges end when the budget does). Returns the state
   * before.
   */
  NodeState step(long now, boolean goingAbnormal, long totalBlocks, long totalReq, int held,
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
   * Gives the active apps their ranges (and marks chunk pacing, {@code topWeight} being the highest weight of the
   * apps active now or recently), or, if ranges ended at this tick coming from {@code before} ABNORMAL, lifts them.
   */
  void assign(List<AppBooks> active, double topWeight, NodeState before, long now, Collection<AppBooks> apps) {
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
    for (AppBooks a : active) {
      if (a.weight < top && PaceRule.overRange(a.allowed, a.outstandingBlocks, a.held)) {
        a.pacedUntil = now + paceLingerNanos;
        a.paced = true;
      }
    }
  }

  /** Splits the budget over the active apps by weight and unused demand (see {@link RangeAllocator}). */
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
