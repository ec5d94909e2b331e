package io.sluice.bench.throttlesim.fleet;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

/** Generates the seeded list of applications; the same list is replayed against every scenario. */
public final class Workload {
  private Workload() {}

  public static List<AppSpec> generate(WorkloadParams p, long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    Set<Integer> hot = new HashSet<>();
    int[][] sets = new int[p.hotSets()][p.hotSetSize()];
    for (int s = 0; s < p.hotSets(); s++) {
      for (int i = 0; i < p.hotSetSize(); i++) {
        int n;
        do {
          n = rnd.nextInt(p.nodes());
        } while (!hot.add(n));
        sets[s][i] = n;
      }
    }
    List<AppSpec> apps = new ArrayList<>();
    long horizon = (long) (p.arrivalMinutes() * 60e9);
    for (WorkloadParams.Cls c : List.of(p.high(), p.normal(), p.low())) {
      long t = 0;
      while (true) {
        t += (long) (-Math.log(1.0 - rnd.nextDouble()) * c.meanGapSeconds() * 1e9);
        if (t >= horizon) {
          break;
        }
        int[] hosts = new int[c.executors()];
        boolean exposed = false;
        for (int e = 0; e < hosts.length; e++) {
          hosts[e] = rnd.nextInt(p.nodes());
          exposed |= hot.contains(hosts[e]);
        }
        apps.add(
            new AppSpec(
                -1,
                null,
                c.kind(),
                c.priority(),
                t,
                hosts,
                c.cores(),
                c.maps(),
                c.reduces(),
                c.blockBytes(),
                (long) (c.mapTaskSeconds() * 1e9),
                exposed));
      }
    }
    WorkloadParams.Heavy h = p.heavy();
    for (int i = 0; i < h.count(); i++) {
      int[] set = sets[i % p.hotSets()];
      int[] hosts = new int[set.length * h.executorsPerNode()];
      for (int e = 0; e < hosts.length; e++) {
        hosts[e] = set[e % set.length];
      }
      apps.add(
          new AppSpec(
              -1,
              null,
              "heavy",
              h.priority(),
              (long) (i * h.spacingSeconds() * 1e9),
              hosts,
              h.cores(),
              h.maps(),
              h.reduces(),
              h.blockBytes(),
              (long) (h.mapTaskSeconds() * 1e9),
              true));
    }
    apps.sort(Comparator.comparingLong(AppSpec::submitAt).thenComparing(AppSpec::kind));
    List<AppSpec> out = new ArrayList<>(apps.size());
    for (int i = 0; i < apps.size(); i++) {
      AppSpec a = apps.get(i);
      out.add(
          new AppSpec(
              i,
              String.format("app-%05d-%s", i, a.kind()),
              a.kind(),
              a.priority(),
              a.submitAt(),
              a.executorHosts(),
              a.coresPerExecutor(),
              a.maps(),
              a.reduces(),
              a.blockBytes(),
              a.mapTaskNanos(),
              a.exposed()));
    }
    return out;
  }
}
