package io.sluice.bench.throttlesim.fleet;

import io.sluice.bench.throttlesim.client.BlockFetch;
import io.sluice.bench.throttlesim.client.ClientConf;
import io.sluice.bench.throttlesim.client.ShuffleClient;
import io.sluice.bench.throttlesim.engine.EventLoop;
import io.sluice.bench.throttlesim.engine.LogHistogram;
import io.sluice.bench.throttlesim.ess.Admission;
import io.sluice.bench.throttlesim.ess.EssNode;
import io.sluice.bench.throttlesim.ess.GateAdmission;
import io.sluice.bench.throttlesim.ess.NodeStats;
import io.sluice.throttle.gate.AppInfo;
import io.sluice.throttle.gate.PriorityMap;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Runs one scenario over one workload and collects what the report needs. */
public final class FleetRun {
  /** What one scenario produced. */
  public record Result(
      Scenario scenario,
      List<App> apps,
      Map<String, LogHistogram> fetchLatency,
      Map<String, LogHistogram> fetchLatencyExposed,
      ShuffleClient client,
      NodeStats nodes,
      long simEndNanos,
      long events,
      long wallMillis,
      long cpuMillis,
      boolean allEnded) {}

  private FleetRun() {}

  public static Result run(
      Scenario sc,
      WorkloadParams wp,
      List<AppSpec> specs,
      EssNode.Params np,
      ClientConf cc,
      long seed,
      long maxSimNanos) {
    long t0 = System.nanoTime();
    java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
    long c0 = mx.getCurrentThreadCpuTime();
    EventLoop loop = new EventLoop();
    ShuffleClient client = new ShuffleClient(loop, cc);
    NodeStats stats = new NodeStats(wp.nodes());
    Map<String, AppInfo> infos = new HashMap<>();
    for (AppSpec s : specs) {
      infos.put(s.appId(), new AppInfo(s.appId(), s.priority(), s.kind(), sc.shim(s.index())));
    }
    List<EssNode> nodes = new ArrayList<>(wp.nodes());
    for (int n = 0; n < wp.nodes(); n++) {
      Admission adm;
      if (sc.gate() == null) {
        adm = Admission.STOCK;
      } else {
        int def = sc.gate().defaultPriority();
        PriorityMap pm =
            id -> {
              AppInfo i = infos.get(id);
              return i != null ? i : AppInfo.unknown(id, def);
            };
        adm = new GateAdmission(loop, sc.gate(), pm, stats.gateEvents());
      }
      nodes.add(new EssNode(n, loop, client, adm, np, stats, seed * 1_000_003L + n));
    }
    Map<String, LogHistogram> lat = new LinkedHashMap<>();
    Map<String, LogHistogram> latExposed = new LinkedHashMap<>();
    List<App> apps = new ArrayList<>();
    int[] ended = {0};
    App.Listener listener =
        new App.Listener() {
          @Override
          public void fetchCompleted(App app, BlockFetch f) {
            long l = f.completedAt() - f.firstSentAt();
            lat.computeIfAbsent(app.spec.kind(), k -> LogHistogram.fine()).record(l);
            if (app.spec.exposed()) {
              latExposed.computeIfAbsent(app.spec.kind(), k -> LogHistogram.fine()).record(l);
            }
          }

          @Override
          public void ended(App app) {
            ended[0]++;
            for (int h : app.mapHosts) {
              nodes.get(h).admission().appEnded(app.ref);
            }
          }
        };
    for (AppSpec s : specs) {
      App a =
          new App(s, sc.shim(s.index()), loop, client, nodes, listener, seed * 7919L + s.index());
      apps.add(a);
      loop.at(s.submitAt(), a::submit);
    }
    long step = 60_000_000_000L;
    long until = 0;
    while (ended[0] < apps.size() && until < maxSimNanos && loop.pending() > 0) {
      until += step;
      loop.runUntil(until);
    }
    // let the nodes settle (observers see their windows drain) before closing the books
    loop.runUntil(loop.now() + 90_000_000_000L);
    long end = loop.now();
    stats.finish(end);
    return new Result(
        sc,
        apps,
        lat,
        latExposed,
        client,
        stats,
        end,
        loop.executed(),
        (System.nanoTime() - t0) / 1_000_000,
        (mx.getCurrentThreadCpuTime() - c0) / 1_000_000,
        ended[0] == apps.size());
  }
}
