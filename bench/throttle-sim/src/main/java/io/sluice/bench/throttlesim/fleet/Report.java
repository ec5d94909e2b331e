package io.sluice.bench.throttlesim.fleet;

import io.sluice.bench.throttlesim.engine.EpisodeTracker;
import io.sluice.bench.throttlesim.engine.LogHistogram;
import io.sluice.bench.throttlesim.ess.EpisodeTrace;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Turns scenario results into the Markdown tables of docs/benchmarks.md and a JSON-friendly map.
 */
public final class Report {
  static final List<String> KINDS = List.of("high", "normal", "low", "heavy");

  private Report() {}

  static double q(List<Long> xs, double q) {
    if (xs.isEmpty()) {
      return Double.NaN;
    }
    List<Long> s = new ArrayList<>(xs);
    Collections.sort(s);
    int i = (int) Math.ceil(q * s.size()) - 1;
    return s.get(Math.max(0, Math.min(s.size() - 1, i)));
  }

  static double qd(List<Double> xs, double q) {
    if (xs.isEmpty()) {
      return Double.NaN;
    }
    List<Double> s = new ArrayList<>(xs);
    Collections.sort(s);
    int i = (int) Math.ceil(q * s.size()) - 1;
    return s.get(Math.max(0, Math.min(s.size() - 1, i)));
  }

  static String sec(double nanos) {
    return Double.isNaN(nanos) ? "–" : String.format(Locale.ROOT, "%.1f", nanos / 1e9);
  }

  static String ms(double nanos) {
    return Double.isNaN(nanos) ? "–" : String.format(Locale.ROOT, "%.0f", nanos / 1e6);
  }

  private static List<Long> completions(FleetRun.Result r, String kind, boolean exposedOnly) {
    List<Long> out = new ArrayList<>();
    for (App a : r.apps()) {
      if (a.spec.kind().equals(kind)
          && (!exposedOnly || a.spec.exposed())
          && a.ended()
          && !a.aborted) {
        out.add(a.endAt - a.spec.submitAt());
      }
    }
    return out;
  }

  /**
   * Each heavy job's completion time (s; "aborted" or "–" if it did not end), in submission order.
   */
  static List<String> heavyJobs(FleetRun.Result r) {
    List<App> heavy = new ArrayList<>();
    for (App a : r.apps()) {
      if (a.spec.kind().equals("heavy")) {
        heavy.add(a);
      }
    }
    heavy.sort(java.util.Comparator.comparingLong(a -> a.spec.submitAt()));
    List<String> out = new ArrayList<>();
    for (App a : heavy) {
      out.add(
          a.aborted ? "aborted" : a.ended() ? sec((double) (a.endAt - a.spec.submitAt())) : "–");
    }
    return out;
  }

  public static String markdown(List<FleetRun.Result> rs) {
    StringBuilder b = new StringBuilder();
    String head =
        "| | "
            + String.join(" | ", rs.stream().map(r -> r.scenario().name()).toList())
            + " |\n"
            + "|---|"
            + "---|".repeat(rs.size())
            + "\n";
    b.append("**Completion time, s (p50 / p90; exposed = has an executor on a hot node)**\n\n")
        .append(head);
    for (String k : KINDS) {
      b.append("| ").append(k).append(" apps, all |");
      for (FleetRun.Result r : rs) {
        List<Long> c = completions(r, k, false);
        b.append(' ')
            .append(sec(q(c, 0.5)))
            .append(" / ")
            .append(sec(q(c, 0.9)))
            .append(" (n=")
            .append(c.size())
            .append(") |");
      }
      b.append('\n');
      if (!k.equals("heavy")) {
        b.append("| ").append(k).append(" apps, exposed |");
        for (FleetRun.Result r : rs) {
          List<Long> c = completions(r, k, true);
          b.append(' ')
              .append(sec(q(c, 0.5)))
              .append(" / ")
              .append(sec(q(c, 0.9)))
              .append(" (n=")
              .append(c.size())
              .append(") |");
        }
        b.append('\n');
      }
    }
    b.append("| heavy jobs, each in submission order |");
    for (FleetRun.Result r : rs) {
      b.append(' ').append(String.join(" / ", heavyJobs(r))).append(" |");
    }
    b.append('\n');
    FleetRun.Result base = rs.get(0);
    for (String k : KINDS) {
      b.append("| ")
          .append(k)
          .append(": per-app time vs ")
          .append(base.scenario().name())
          .append(" (median ratio; share faster) |");
      for (FleetRun.Result r : rs) {
        double[] p = paired(base, r, k);
        b.append(String.format(Locale.ROOT, " %.2f; %.0f%% |", p[0], p[1] * 100));
      }
      b.append('\n');
    }
    b.append(
            "\n**Fetch latency, ms (one FetchRequest: first send → last block, retries and sleeps included)**\n\n")
        .append(head);
    for (String k : KINDS) {
      b.append("| ").append(k).append(" p50 / p99 |");
      for (FleetRun.Result r : rs) {
        LogHistogram h = r.fetchLatency().get(k);
        b.append(' ')
            .append(h == null ? "–" : ms(h.percentile(0.5)) + " / " + ms(h.percentile(0.99)))
            .append(" |");
      }
      b.append('\n');
      if (!k.equals("heavy")) {
        b.append("| ").append(k).append(" (exposed apps) p50 / p99 |");
        for (FleetRun.Result r : rs) {
          LogHistogram h = r.fetchLatencyExposed().get(k);
          b.append(' ')
              .append(h == null ? "–" : ms(h.percentile(0.5)) + " / " + ms(h.percentile(0.99)))
              .append(" |");
        }
        b.append('\n');
      }
    }
    b.append("\n**Failures**\n\n").append(head);
    row(b, "connections closed by the 120 s idle timeout", rs, r -> "" + r.client().timeouts);
    row(
        b,
        "requests failed by those timeouts / IOException retries",
        rs,
        r -> r.client().requestsFailedByTimeout + " / " + r.client().retries);
    row(
        b,
        "FetchFailed (retries exhausted or not retryable)",
        rs,
        r -> "" + r.client().fetchFailures);
    row(
        b,
        "stage re-runs / jobs aborted (4 attempts)",
        rs,
        r ->
            r.apps().stream().mapToInt(a -> a.stageRetries).sum()
                + " / "
                + r.apps().stream().filter(a -> a.aborted).count());
    row(
        b,
        "SLEEP directives (to stock clients)",
        rs,
        r -> r.client().directives + " (" + r.client().directivesToStockClients + ")");
    row(b, "requests held by the gate", rs, r -> "" + r.nodes().requestsHeld);
    row(
        b,
        "held requests released: by reason",
        rs,
        r -> r.nodes().releases.isEmpty() ? "–" : r.nodes().releases.toString().replace(",", ";"));
    row(
        b,
        "hold time, ms: p50 / p99",
        rs,
        r ->
            r.nodes().holdTime.count() == 0
                ? "–"
                : ms(r.nodes().holdTime.percentile(0.5))
                    + " / "
                    + ms(r.nodes().holdTime.percentile(0.99)));
    row(
        b,
        "gate state changes / fail-opens (degraded events)",
        rs,
        r -> r.nodes().gateStateChanges + " / " + r.nodes().degraded);
    b.append(
            "\n**Abnormal nodes: episodes, and time to recover (episode length, s: median / p90 / max)**\n\n")
        .append(head);
    episodes(
        b,
        "observer S: p99 service time (served → last chunk) > 10 s, back < 5 s",
        rs,
        r -> r.nodes().serviceEpisodes);
    episodes(
        b,
        "observer E: p99 node time (arrival → last chunk, holds included)",
        rs,
        r -> r.nodes().nodeTimeEpisodes);
    episodes(b, "the gate's own state", rs, r -> r.nodes().gateEpisodes);
    episodes(
        b,
        "the gate's own state, episodes begun while a heavy job had requests on the node",
        rs,
        r -> r.nodes().gateHotEpisodes);
    row(
        b,
        "those episodes: ended while a heavy job still had requests on the node / within 120 s / within 300 s",
        rs,
        r -> {
          EpisodeTracker t = r.nodes().gateHotEpisodes;
          long in2 = t.durations().stream().filter(d -> d <= 120_000_000_000L).count();
          long in5 = t.durations().stream().filter(d -> d <= 300_000_000_000L).count();
          return r.nodes().gateHotEpisodesEndedUnderLoad + " / " + in2 + " / " + in5;
        });
    row(
        b,
        "those episodes: length p10 / p25 / p50 / p75 / p99, s",
        rs,
        r -> {
          List<Long> d = r.nodes().gateHotEpisodes.durations();
          return sec(q(d, 0.1))
              + " / "
              + sec(q(d, 0.25))
              + " / "
              + sec(q(d, 0.5))
              + " / "
              + sec(q(d, 0.75))
              + " / "
              + sec(q(d, 0.99));
        });
    b.append("\n**Traffic share by priority (bytes served)**\n\n").append(head);
    row(
        b,
        "chunks served per second and node while a heavy job has requests on it (hot-node throughput)",
        rs,
        r ->
            r.nodes().contendedNanos == 0
                ? "–"
                : String.format(
                    java.util.Locale.ROOT,
                    "%.0f",
                    r.nodes().chunksWhileContended * 1e9 / r.nodes().contendedNanos));
    for (int p = 3; p >= 1; p--) {
      int prio = p;
      row(
          b,
          "priority " + p + " while a heavy job has requests on the node",
          rs,
          r -> pct(r.nodes().bytesWhileContended, prio));
    }
    for (int p = 3; p >= 1; p--) {
      int prio = p;
      row(
          b,
          "priority " + p + " while observer E says abnormal",
          rs,
          r -> pct(r.nodes().bytesWhileAbnormal, prio));
    }
    b.append("\n**Run**\n\n").append(head);
    row(
        b,
        "simulated time, s / events / CPU s / wall s",
        rs,
        r ->
            sec(r.simEndNanos())
                + " / "
                + r.events()
                + " / "
                + String.format(
                    Locale.ROOT, "%.1f / %.1f", r.cpuMillis() / 1000.0, r.wallMillis() / 1000.0)
                + (r.allEnded() ? "" : " (NOT all ended)"));
    return b.toString();
  }

  private static String pct(long[] bytes, int prio) {
    long tot = 0;
    for (long x : bytes) {
      tot += x;
    }
    return tot == 0 ? "–" : String.format(Locale.ROOT, "%.1f%%", 100.0 * bytes[prio] / tot);
  }

  private static void row(
      StringBuilder b,
      String label,
      List<FleetRun.Result> rs,
      java.util.function.Function<FleetRun.Result, String> f) {
    b.append("| ").append(label).append(" |");
    for (FleetRun.Result r : rs) {
      b.append(' ').append(f.apply(r)).append(" |");
    }
    b.append('\n');
  }

  private static void episodes(
      StringBuilder b,
      String label,
      List<FleetRun.Result> rs,
      java.util.function.Function<FleetRun.Result, EpisodeTracker> f) {
    row(
        b,
        label + ": nodes ever abnormal / episodes (+ still open at end)",
        rs,
        r -> {
          EpisodeTracker t = f.apply(r);
          return t.nodesEverAbnormal()
              + " / "
              + t.durations().size()
              + " (+"
              + t.censored().size()
              + ")";
        });
    row(
        b,
        label + ": recovery",
        rs,
        r -> {
          EpisodeTracker t = f.apply(r);
          List<Long> all = new ArrayList<>(t.durations());
          all.addAll(t.censored());
          return sec(q(t.durations(), 0.5))
              + " / "
              + sec(q(t.durations(), 0.9))
              + " / "
              + sec(q(all, 1.0));
        });
  }

  /**
   * Median of per-app completion ratios (r over base) and the share of apps faster in r, for one
   * class.
   */
  static double[] paired(FleetRun.Result base, FleetRun.Result r, String kind) {
    Map<String, Long> bt = new HashMap<>();
    for (App a : base.apps()) {
      if (a.spec.kind().equals(kind) && a.ended()) {
        bt.put(a.spec.appId(), a.endAt - a.spec.submitAt());
      }
    }
    List<Double> ratios = new ArrayList<>();
    int faster = 0;
    for (App a : r.apps()) {
      Long t = bt.get(a.spec.appId());
      if (t != null && a.ended()) {
        long mine = a.endAt - a.spec.submitAt();
        ratios.add((double) mine / t);
        faster += mine < t ? 1 : 0;
      }
    }
    return new double[] {
      qd(ratios, 0.5), ratios.isEmpty() ? Double.NaN : (double) faster / ratios.size()
    };
  }

  /** Per-scenario figures for the JSON results file. */
  public static Map<String, Object> json(FleetRun.Result r) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("scenario", r.scenario().name());
    for (String k : KINDS) {
      Map<String, Object> c = new LinkedHashMap<>();
      List<Long> all = completions(r, k, false);
      c.put("apps", all.size());
      c.put("completionP50s", q(all, 0.5) / 1e9);
      c.put("completionP90s", q(all, 0.9) / 1e9);
      LogHistogram h = r.fetchLatency().get(k);
      c.put("fetchP50ms", h == null ? null : h.percentile(0.5) / 1e6);
      c.put("fetchP99ms", h == null ? null : h.percentile(0.99) / 1e6);
      m.put(k, c);
    }
    m.put("timeouts", r.client().timeouts);
    m.put("retries", r.client().retries);
    m.put("fetchFailures", r.client().fetchFailures);
    m.put("directives", r.client().directives);
    m.put("held", r.nodes().requestsHeld);
    m.put("serviceEpisodes", r.nodes().serviceEpisodes.durations().size());
    m.put("serviceRecoveryP50s", q(r.nodes().serviceEpisodes.durations(), 0.5) / 1e9);
    m.put("serviceRecoveryP90s", q(r.nodes().serviceEpisodes.durations(), 0.9) / 1e9);
    m.put("gateEpisodes", r.nodes().gateEpisodes.durations().size());
    m.put("gateRecoveryP50s", q(r.nodes().gateEpisodes.durations(), 0.5) / 1e9);
    m.put("gateRecoveryP90s", q(r.nodes().gateEpisodes.durations(), 0.9) / 1e9);
    m.put("gateHotEpisodes", r.nodes().gateHotEpisodes.durations().size());
    m.put("gateHotEpisodesOpenAtEnd", r.nodes().gateHotEpisodes.censored().size());
    m.put("gateHotEpisodesEndedUnderLoad", r.nodes().gateHotEpisodesEndedUnderLoad);
    m.put("gateHotRecoveryP50s", q(r.nodes().gateHotEpisodes.durations(), 0.5) / 1e9);
    m.put("gateHotRecoveryP90s", q(r.nodes().gateHotEpisodes.durations(), 0.9) / 1e9);
    m.put("gateHotRecoveryMaxS", q(r.nodes().gateHotEpisodes.durations(), 1.0) / 1e9);
    m.put("events", r.events());
    m.put("wallMillis", r.wallMillis());
    m.put("cpuMillis", r.cpuMillis());
    m.put("simEndSeconds", r.simEndNanos() / 1e9);
    return m;
  }

  /**
   * The gate's hot episodes that lasted at least 2 minutes, per scenario, each with its node's
   * trace (one row every 5 s of simulated time; see {@link EpisodeTrace#line}).
   */
  public static String longEpisodes(List<FleetRun.Result> rs) {
    StringBuilder b = new StringBuilder();
    for (FleetRun.Result r : rs) {
      List<EpisodeTrace.Episode> eps = r.nodes().longHotEpisodes;
      if (r.scenario().gate() == null) {
        continue;
      }
      b.append(
          String.format(
              Locale.ROOT,
              "## %s: %d hot episodes of at least %d s%n%n",
              r.scenario().name(),
              eps.size(),
              EpisodeTrace.LONG_NANOS / 1_000_000_000L));
      for (EpisodeTrace.Episode e : eps) {
        b.append(
            String.format(
                Locale.ROOT,
                "### node %d, from %.0f s, %.0f s long%n%n",
                e.node(),
                e.startNanos() / 1e9,
                e.lengthNanos() / 1e9));
        b.append(
            "| t, s | state | wait p99 / T / normal, ms | samples | budget | in flight | held"
                + " | waits since the last row (kind n×max s) | apps: outstanding/range, h held,"
                + " * paced |\n|---|---|---|---|---|---|---|---|---|\n");
        e.samples().forEach(l -> b.append(l).append('\n'));
        b.append('\n');
      }
    }
    return b.toString();
  }
}
