package io.sluice.throttle.gate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Node state, budget and ranges, tick by tick, with the detector's verdicts set by the test. */
class NodeBudgetTest {
  private static final long MS = 1_000_000L;
  private static final long T0 = 1_000 * MS;

  private final ScriptedDetector detector = new ScriptedDetector();
  // onset: half the blocks in flight, at least 10; then ×0.8 while distressed, ×1.25 once not
  private final BudgetPolicy policy = new MultiplicativeBudget(10, 0.5, 0.8, 1.25);

  private static AppBooks app(String id, double weight, long outstandingBlocks, long demand) {
    AppBooks a = new AppBooks(id, T0, GateMeters.none());
    a.weight = weight;
    a.outstandingBlocks = outstandingBlocks;
    a.outstandingReq = outstandingBlocks > 0 ? 1 : 0;
    a.demand = demand;
    return a;
  }

  @Test
  void turnsAbnormalWithAnOnsetBudgetAndAdaptsItEveryAdaptInterval() {
    NodeBudget node =
        new NodeBudget(GateConfig.defaults(), detector, policy, false); // budget.adaptMs 5 s
    assertThat(node.goingAbnormal()).isFalse();
    assertThat(node.step(T0, false, 200, 4, 0, List.of())).isEqualTo(NodeState.NORMAL);
    assertThat(node.budget()).isEqualTo(-1);
    assertThat(node.ranged()).isFalse();

    detector.next = NodeState.ABNORMAL;
    assertThat(node.goingAbnormal()).isTrue();
    assertThat(node.step(T0, true, 200, 4, 0, List.of())).isEqualTo(NodeState.NORMAL);
    assertThat(node.state()).isEqualTo(NodeState.ABNORMAL);
    assertThat(node.budget()).isEqualTo(100);
    assertThat(node.goingAbnormal()).as("already abnormal").isFalse();

    detector.distressed = true;
    node.step(T0 + 4_999 * MS, false, 300, 4, 0, List.of());
    assertThat(node.budget()).as("not yet an adapt interval").isEqualTo(100);
    node.step(T0 + 5_000 * MS, false, 300, 4, 0, List.of());
    assertThat(node.budget()).isEqualTo(80);
    detector.distressed = false;
    node.step(T0 + 10_000 * MS, false, 300, 4, 0, List.of());
    assertThat(node.budget()).isEqualTo(100);
  }

  @Test
  void splitsTheBudgetByWeightAndPacesOnlyTheLighterAppOverItsRange() {
    GateConfig cfg = GateConfig.defaults().with(GateConfig.PACE_LINGER_MS, 2_000L);
    NodeBudget node = new NodeBudget(cfg, detector, policy, true);
    detector.next = NodeState.ABNORMAL;
    node.step(T0, true, 200, 2, 0, List.of());
    AppBooks heavy = app("heavy", 1, 90, 1_000);
    AppBooks light = app("light", 3, 5, 1_000);
    List<AppBooks> active = List.of(heavy, light);

    node.assign(active, 3, NodeState.NORMAL, T0, active);
    assertThat(heavy.allowed).isEqualTo(25);
    assertThat(light.allowed).isEqualTo(75);
    assertThat(heavy.paced).isTrue();
    assertThat(heavy.pacedUntil).isEqualTo(T0 + 2_000 * MS);
    assertThat(light.paced).as("the highest weight is never paced").isFalse();
  }

  @Test
  void anAppOverItsRangeIsPacedNextToAnAppOfEqualWeightWithinItsRangeButNotNextToOneOverIt() {
    GateConfig cfg = GateConfig.defaults().with(GateConfig.PACE_LINGER_MS, 2_000L);
    NodeBudget node = new NodeBudget(cfg, detector, policy, true);
    detector.next = NodeState.ABNORMAL;
    node.step(T0, true, 200, 2, 0, List.of());
    AppBooks heavy = app("heavy", 1, 95, 1_000);
    AppBooks low = app("low", 1, 5, 10);
    List<AppBooks> active = List.of(heavy, low);

    node.assign(active, 1, NodeState.NORMAL, T0, active);
    // budget 100: low needs 10 of its 50, heavy gets the other 90
    assertThat(low.allowed).isEqualTo(50);
    assertThat(heavy.allowed).isEqualTo(90);
    assertThat(heavy.paced).as("95 > 90 next to low, 5 < 50").isTrue();
    assertThat(low.paced).isFalse();

    AppBooks other = app("other", 1, 60, 1_000);
    AppBooks heavy2 = app("heavy2", 1, 95, 1_000);
    List<AppBooks> both = List.of(heavy2, other);
    node.assign(both, 1, NodeState.ABNORMAL, T0, both);
    assertThat(heavy2.allowed).isEqualTo(50);
    assertThat(other.allowed).isEqualTo(50);
    assertThat(heavy2.paced || other.paced).as("both over range: nobody to protect").isFalse();
  }

  @Test
  void withBudgetReleaseTheRangesLastUntilNothingIsHeld() {
    NodeBudget node =
        new NodeBudget(GateConfig.defaults(), detector, policy, false); // release.onNormal BUDGET
    detector.next = NodeState.ABNORMAL;
    node.step(T0, true, 200, 2, 5, List.of());
    AppBooks a = app("a", 1, 10, 20);
    List<AppBooks> apps = List.of(a);

    detector.next = NodeState.NORMAL;
    assertThat(node.step(T0 + 100 * MS, false, 10, 1, 5, apps)).isEqualTo(NodeState.ABNORMAL);
    assertThat(node.state()).isEqualTo(NodeState.NORMAL);
    assertThat(node.budget()).as("5 still held").isEqualTo(100);
    node.assign(apps, 1, NodeState.ABNORMAL, T0 + 100 * MS, apps);
    assertThat(a.allowed).isEqualTo(100);

    node.step(T0 + 200 * MS, false, 10, 1, 0, apps);
    assertThat(node.budget()).isEqualTo(-1);
    assertThat(a.allowed).isEqualTo(-1);
  }

  @Test
  void withReleaseAllTheRangesEndWithTheEpisode() {
    GateConfig cfg = GateConfig.defaults().with(GateConfig.RELEASE_ON_NORMAL, NormalRelease.ALL);
    NodeBudget node = new NodeBudget(cfg, detector, policy, false);
    detector.next = NodeState.ABNORMAL;
    node.step(T0, true, 200, 2, 5, List.of());
    AppBooks a = app("a", 1, 10, 20);
    List<AppBooks> apps = List.of(a);
    node.assign(apps, 1, NodeState.NORMAL, T0, apps);
    assertThat(a.allowed).isEqualTo(100);

    detector.next = NodeState.NORMAL;
    NodeState before = node.step(T0 + 100 * MS, false, 10, 1, 5, apps);
    assertThat(node.budget()).isEqualTo(-1);
    node.assign(apps, 1, before, T0 + 100 * MS, apps);
    assertThat(a.allowed).isEqualTo(-1);
  }
}
