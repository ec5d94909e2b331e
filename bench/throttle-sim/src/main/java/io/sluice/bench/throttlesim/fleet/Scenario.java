package io.sluice.bench.throttlesim.fleet;

import io.sluice.throttle.gate.GateConfig;

/**
 * One way of running the fleet: the stock ESS, or the gate on every node with a given
 * configuration, and which apps run the client shim (every {@code shimEvery}-th app by index; 0 =
 * none).
 */
public record Scenario(String name, GateConfig gate, int shimEvery) {
  public static Scenario stock() {
    return new Scenario("stock", null, 0);
  }

  public static Scenario gate(GateConfig cfg) {
    return new Scenario("gate", cfg, 0);
  }

  /**
   * The stock ESS's behaviour (the gate in MONITOR_ONLY admits everything) with the gate's node
   * state recorded.
   */
  public static Scenario monitor(GateConfig cfg) {
    return new Scenario(
        "monitor", cfg.with(GateConfig.MODE, io.sluice.throttle.gate.GateMode.MONITOR_ONLY), 0);
  }

  public static Scenario gateShim(GateConfig cfg, int shimEvery) {
    return new Scenario("gate+shim", cfg, shimEvery);
  }

  boolean shim(int appIndex) {
    return shimEvery > 0 && appIndex % shimEvery == 0;
  }
}
