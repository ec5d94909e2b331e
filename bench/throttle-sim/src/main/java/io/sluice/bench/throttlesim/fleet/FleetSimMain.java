package io.sluice.bench.throttlesim.fleet;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.sluice.bench.throttlesim.client.ClientConf;
import io.sluice.bench.throttlesim.ess.EssNode;
import io.sluice.throttle.gate.GateConfig;
import java.io.File;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Runs the same seeded fleet workload against the stock ESS and the gate and prints the comparison.
 */
@Command(
    name = "fleet-sim",
    mixinStandardHelpOptions = true,
    description = "Discrete-event simulation of a fleet of Spark ESS nodes: stock vs ThrottleGate.")
public final class FleetSimMain implements Callable<Integer> {
  @Option(names = "--seed", defaultValue = "42", description = "Workload and service-time seed.")
  long seed;

  @Option(names = "--nodes", defaultValue = "1000", description = "ESS nodes in the fleet.")
  int nodes;

  @Option(
      names = "--arrival-minutes",
      defaultValue = "30",
      description = "Steady apps arrive during this long.")
  double arrivalMinutes;

  @Option(
      names = "--heavy",
      description = "Number of noisy heavy low-priority jobs (default: the workload's).")
  Integer heavy;

  @Option(
      names = "--heavy-maps",
      description = "Maps (and so blocks per reducer) of each heavy job.")
  Integer heavyMaps;

  @Option(names = "--heavy-reduces", description = "Reduce partitions of each heavy job.")
  Integer heavyReduces;

  @Option(
      names = "--heavy-executors-per-node",
      description = "Executors (4 cores) per hot node of a heavy job.")
  Integer heavyExecs;

  @Option(names = "--heavy-spacing", description = "Seconds between heavy job submissions.")
  Double heavySpacing;

  @Option(names = "--hot-sets", description = "Groups of nodes the heavy jobs are concentrated on.")
  Integer hotSets;

  @Option(
      names = "--scenarios",
      defaultValue = "stock,gate,gate+shim",
      split = ",",
      description =
          "Which of stock, monitor (stock behaviour, the gate in MONITOR_ONLY recording its state), gate, "
              + "gate+shim to run (the first is the baseline of the paired ratios).")
  List<String> scenarios;

  @Option(
      names = "--shim-every",
      defaultValue = "2",
      description = "In gate+shim, every n-th app (by index) runs the client shim.")
  int shimEvery;

  @Option(
      names = "--gate",
      description = "Gate configuration override, e.g. --gate sluice.throttle.hold.maxMs=10000")
  Map<String, String> gateOverrides = new HashMap<>();

  @Option(
      names = "--disks",
      description =
          "Disks per node (default 12). 1: every server thread shares one device, "
              + "a single first-come-first-served queue of reads, as the ESS test mode's SHARED_DISK emulates.")
  private Integer disks;

  @Option(names = "--threads", description = "Server (event-loop) threads per node (default 8).")
  private Integer threads;

  @Option(
      names = "--max-sim-hours",
      defaultValue = "6",
      description = "Stop a scenario after this simulated time.")
  double maxSimHours;

  @Option(
      names = "--parallel",
      defaultValue = "true",
      negatable = true,
      description = "Run the scenarios on one thread each (default) or one after the other.")
  boolean parallel;

  @Option(names = "--out", description = "Directory for results.json and results.md.")
  File out;

  @Override
  public Integer call() throws Exception {
    WorkloadParams d = WorkloadParams.defaults();
    WorkloadParams.Heavy h = d.heavy();
    WorkloadParams wp =
        new WorkloadParams(
            nodes,
            arrivalMinutes,
            or(hotSets, d.hotSets()),
            d.hotSetSize(),
            d.high(),
            d.normal(),
            d.low(),
            new WorkloadParams.Heavy(
                or(heavy, h.count()),
                or(heavySpacing, h.spacingSeconds()),
                h.priority(),
                or(heavyExecs, h.executorsPerNode()),
                h.cores(),
                or(heavyMaps, h.maps()),
                or(heavyReduces, h.reduces()),
                h.blockBytes(),
                h.mapTaskSeconds()));
    List<AppSpec> specs = Workload.generate(wp, seed);
    GateConfig gate = GateConfig.fromMap(gateOverrides);
    System.out.printf(
        "fleet: %d nodes, %d apps (%s), seed %d, gate overrides %s%n",
        nodes, specs.size(), counts(specs), seed, gateOverrides);
    List<Scenario> scs = new ArrayList<>();
    for (String s : scenarios) {
      scs.add(
          switch (s.trim()) {
            case "stock" -> Scenario.stock();
            case "gate" -> Scenario.gate(gate);
            case "gate+shim" -> Scenario.gateShim(gate, shimEvery);
            case "monitor" -> Scenario.monitor(gate);
            default ->
                throw new CommandLine.ParameterException(
                    new CommandLine(this), "unknown scenario " + s);
          });
    }
    // Scenarios share nothing mutable (each has its own event loop, nodes, gates and apps), so they
    // run side by side
    // on their own threads; each one is still a deterministic function of the seed.
    EssNode.Params np0 = EssNode.Params.defaults();
    EssNode.Params np =
        new EssNode.Params(
            or(threads, np0.threads()),
            or(disks, np0.disks()),
            np0.rpcCpuNanos(),
            np0.hdd(),
            np0.observerWindowNanos(),
            np0.observerSlots(),
            np0.abnormalNanos(),
            np0.normalNanos(),
            np0.minSamples(),
            np0.idleStopNanos());
    ExecutorService pool = Executors.newFixedThreadPool(parallel ? scs.size() : 1);
    List<Future<FleetRun.Result>> futures = new ArrayList<>();
    for (Scenario sc : scs) {
      futures.add(
          pool.submit(
              () -> {
                FleetRun.Result r =
                    FleetRun.run(
                        sc,
                        wp,
                        specs,
                        np,
                        ClientConf.sparkDefaults(),
                        seed,
                        (long) (maxSimHours * 3600e9));
                System.out.printf(
                    "%s: %d events, simulated %.0f s, wall %.1f s, CPU %.1f s%s%n",
                    sc.name(),
                    r.events(),
                    r.simEndNanos() / 1e9,
                    r.wallMillis() / 1000.0,
                    r.cpuMillis() / 1000.0,
                    r.allEnded() ? "" : " (not every app ended)");
                return r;
              }));
    }
    List<FleetRun.Result> rs = new ArrayList<>();
    for (Future<FleetRun.Result> f : futures) {
      rs.add(f.get());
    }
    pool.shutdown();
    String md = Report.markdown(rs);
    System.out.println();
    System.out.println(md);
    if (out != null) {
      Files.createDirectories(out.toPath());
      Files.writeString(out.toPath().resolve("results.md"), md);
      Files.writeString(out.toPath().resolve("episodes.md"), Report.longEpisodes(rs));
      Map<String, Object> j = new LinkedHashMap<>();
      j.put("seed", seed);
      j.put("nodes", nodes);
      j.put("apps", specs.size());
      j.put("gateOverrides", gateOverrides);
      j.put("threads", np.threads());
      j.put("disks", np.disks());
      j.put("scenarios", rs.stream().map(Report::json).toList());
      new ObjectMapper()
          .enable(SerializationFeature.INDENT_OUTPUT)
          .writeValue(out.toPath().resolve("results.json").toFile(), j);
    }
    return 0;
  }

  private static <T> T or(T v, T d) {
    return v != null ? v : d;
  }

  private static String counts(List<AppSpec> specs) {
    Map<String, Integer> c = new LinkedHashMap<>();
    for (String k : Report.KINDS) {
      c.put(k, 0);
    }
    specs.forEach(s -> c.merge(s.kind(), 1, Integer::sum));
    return c.toString();
  }

  public static void main(String[] args) {
    System.exit(new CommandLine(new FleetSimMain()).execute(args));
  }
}
