package io.sluice.throttle.gate;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;

/**
 * Generates docs/throttle.md from the knob declarations in {@link GateConfig}; {@code ThrottleDocTest} fails when
 * the committed file differs.
 *
 * <pre>java ... io.sluice.throttle.gate.ThrottleDoc [OUTPUT]   (default: docs/throttle.md; "-" prints to stdout)</pre>
 */
public final class ThrottleDoc {
  /** How to regenerate the committed file (printed by the golden test when it is stale). */
  public static final String REGENERATE =
      "mvn -q -B -pl ess-throttle-patch/gate test -Dtest=ThrottleDocTest -Dsluice.throttle.doc.write=true";

  private ThrottleDoc() {}

  public static void main(String[] args) throws IOException {
    String text = generate(GateConfig.KNOBS);
    String out = args.length > 0 ? args[0] : "docs/throttle.md";
    if (out.equals("-")) {
      System.out.print(text);
    } else {
      Path p = Paths.get(out);
      if (p.getParent() != null) {
        Files.createDirectories(p.getParent());
      }
      Files.writeString(p, text, StandardCharsets.UTF_8);
    }
  }

  public static String generate(List<Knob<?>> knobs) {
    StringBuilder b = new StringBuilder();
    b.append("# ESS throttle gate\n\n")
        .append("<!-- Generated from the knob declarations in io.sluice.throttle.gate.GateConfig by ")
        .append("io.sluice.throttle.gate.ThrottleDoc; do not edit.\n     Regenerate: ").append(REGENERATE)
        .append(" -->\n\n")
        .append("The gate (`io.sluice.throttle.gate.ThrottleGate`, DESIGN §6) sits in the External Shuffle Service ")
        .append("and decides for every fetch request (OpenBlocks, FetchShuffleBlocks, FetchShuffleBlockChunks) ")
        .append("whether to serve it now (ADMIT), park it and serve it later (HOLD) or, for applications running ")
        .append("Sluice's client shim only, reply with a SLEEP directive. Control messages (executor registration, ")
        .append("removals, merge finalisation, the shim's HELLO) never reach the gate.\n\n")
        .append("## How it decides\n\n")
        .append("- **Signal.** Every request is timed from arrival to its last chunk sent (metered as ")
        .append("`sluice.throttle.request.latency`). The node state uses the *service time* (stream registered → ")
        .append("last chunk sent), so holding requests does not feed back into it. Service times go into a sliding ")
        .append("window of `window.slots` time slots, each a fixed log-linear histogram (32 buckets per power of two, ")
        .append("≤3% error, 1,184 buckets): O(1) lock-free recording, bounded memory, old samples forgotten by time.\n")
        .append("- **State with hysteresis.** NORMAL → ABNORMAL when the window holds at least `window.minSamples` ")
        .append("samples and its p99 ≥ `abnormal.p99Ms`; back to NORMAL when the p99 < `normal.p99Ms` (or the node is ")
        .append("idle: no samples, nothing in flight, nothing held).\n")
        .append("- **Budget.** While ABNORMAL the node has an in-flight budget B in blocks: on turning ABNORMAL ")
        .append("B = max(`budget.minBlocks`, `budget.fraction` × blocks in flight then); every `budget.adaptMs` it is ")
        .append("multiplied by `budget.decrease` while the p99 stays ≥ `abnormal.p99Ms` and by `budget.increase` ")
        .append("once it is below, within [minBlocks, max(minBlocks, blocks in flight at onset)].\n")
        .append("- **Allowed ranges.** B is split over the active apps (something in flight or held) by priority ")
        .append("weight (`priority.weights`; apps the priority map does not know get `priority.default`): app i's ")
        .append("share is B × w(i) / Σw. Shares that apps with less demand (outstanding + held blocks) leave unused ")
        .append("are redistributed by weight to the others (water-filling); an app's range is never below its own ")
        .append("weighted share. Example: weights 4:1, B = 100, both busy → 80 and 20 blocks.\n")
        .append("- **Decisions.** A request is in range when its app has nothing in flight (every app always keeps ")
        .append("one request in flight), or its outstanding blocks plus the request's fit in its range, and none of ")
        .append("its earlier requests is held (FIFO per app). In range → ADMIT. Over range → SLEEP for a shim app ")
        .append("within its sleep budget (`sleep.budgetMs` per `sleep.budgetWindowMs`; length from `sleep.minMs` to ")
        .append("`sleep.maxMs`, linear in the overage), else HOLD; when `held.max` or `held.maxPerApp` is reached the ")
        .append("request is admitted instead (fail-open, counted). A stock Spark client never gets an error.\n")
        .append("- **Holds are bounded.** Each `tick.ms` the gate releases, per app in arrival order, held requests ")
        .append("that are back in range, and every one whose deadline (arrival + `hold.maxMs`) would pass before the ")
        .append("next tick; turning NORMAL releases all. So every held request is served at the latest at its ")
        .append("deadline, well inside Spark's 120 s `spark.network.timeout`.\n")
        .append("- **Monitor-only.** `mode=MONITOR_ONLY` admits everything but still times, tracks the state and ")
        .append("counts what it would have decided (`sluice.throttle.decisions{enforced=false}`).\n")
        .append("- **Priorities.** Pulled from the tuner-service (`GET <priority.url>/api/v1/throttle/priorities`), ")
        .append("cached and refreshed in the background; when the source is down for longer than `priority.ttlMs` ")
        .append("every app gets the default priority (fail-open, counted).\n")
        .append("- **Cleanup.** Apps idle for `app.idleTimeoutMs` are forgotten (a standalone ESS is never told that ")
        .append("an application ended); requests never reported finished are dropped from the books after ")
        .append("`request.maxAgeMs`.\n\n")
        .append("## Configuration\n\n")
        .append("Flat keys (for example in the ESS's Spark configuration or the NodeManager's configuration). A key ")
        .append("under `").append(GateConfig.PREFIX).append("` that is not listed here, a value that does not parse ")
        .append("or lies outside its range, `normal.p99Ms` ≥ `abnormal.p99Ms`, `sleep.minMs` > `sleep.maxMs` and ")
        .append("`hold.maxMs` ≤ `tick.ms` fail at start-up with a message naming the key.\n\n")
        .append("| key | default | unit | valid | meaning |\n|---|---|---|---|---|\n");
    for (Knob<?> k : knobs) {
      b.append("| `").append(k.key()).append("` | ").append(k.defaultText().isEmpty() ? "(empty)" : cell(
          k.defaultText())).append(" | ").append(k.unit() == Knob.Unit.ENUM ? "enum" : k.unit().label())
          .append(" | ").append(cell(k.range())).append(" | ").append(cell(k.description())).append(" |\n");
    }
    return b.toString();
  }

  private static String cell(String s) {
    return s.replace("|", "\\|").replace("\n", " ");
  }
}
