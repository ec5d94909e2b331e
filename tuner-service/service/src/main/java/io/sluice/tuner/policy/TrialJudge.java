package io.sluice.tuner.policy;

import io.sluice.model.AppRun;
import io.sluice.rules.Figure;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Judges one trial (one or more runs with the same changed overlay) against the reference runs,
 * pure.
 *
 * <p>The changed keys come grouped in {@link Unit}s (keys of one lever, or keys whose figures
 * overlap, judged as one change). Each unit is judged first on its own figures, medians over the
 * reference runs and over the trial runs: a cost that rose by {@code minImprovement} or more rolls
 * it back; a unit whose figures all stayed within the noise (or were not measured: no stage of
 * their kind ran) <i>moved nothing</i> and is rolled back even if wall time improved; a unit that
 * moved a figure is kept. A failure count that fell by one against a single reference run did not
 * move (it varies that much from run to run). A timing figure (blocked time, longest reduce task)
 * counts as better only beyond the wall-time threshold below: it is as noisy as wall time. Wall
 * time is the guard over the whole trial, against the job's own noise band {@code b}: with {@code
 * n} trial runs the threshold is {@code max(minImprovement, b / sqrt(n))}; beyond it every unit is
 * rolled back; a first run worse by more than {@code minImprovement} but within it is {@link
 * Evaluation#INCONCLUSIVE} and runs again. More failed tasks, or a failed run, roll everything
 * back. A unit that declares no figures is judged on wall time alone and needs two runs before it
 * is kept.
 */
final class TrialJudge {
  private final PolicyConfig config;

  TrialJudge(PolicyConfig config) {
    this.config = config;
  }

  /** Keys judged as one change; {@code changes} rows are {key, direction, previous, value}. */
  record Unit(List<String[]> changes, List<Figure> figures) {
    String keys() {
      return String.join(
          " + ",
          changes.stream().map(c -> c[0] + "=" + (c[3].isEmpty() ? "(unset)" : c[3])).toList());
    }
  }

  /**
   * How a unit came out, why (readable, with before and after figures; it follows the unit's keys,
   * so it starts with " because" or ": ") and the figures as evidence ({@code before.<figure>},
   * {@code after.<figure>}). {@code response} is the largest factor by which a figure that counted
   * as better moved ({@code max(before/after, after/before)}, infinite when one side is 0; 1 when
   * none did): how strongly the unit's keys acted. Timings are left out of it: under load they move
   * by factors of their own, whereas block sizes, task counts, spill and failures move only when
   * the job's work changed.
   */
  record UnitVerdict(
      Unit unit, Evaluation evaluation, String why, Map<String, Double> evidence, double response) {
    UnitVerdict(Unit unit, Evaluation evaluation, String why, Map<String, Double> evidence) {
      this(unit, evaluation, why, evidence, 1.0);
    }
  }

  /**
   * The trial's verdict: KEPT (some unit kept), ROLLED_BACK or INCONCLUSIVE; per unit; shared
   * evidence.
   */
  record Verdict(
      Evaluation evaluation, List<UnitVerdict> units, String wall, Map<String, Double> evidence) {}

  private enum Move {
    BETTER,
    WORSE,
    FLAT,
    UNMEASURED
  }

  private record FigureMove(Figure figure, double before, double after, Move move, String note) {
    FigureMove(Figure figure, double before, double after, Move move) {
      this(figure, before, after, move, "");
    }

    String text() {
      String verb = after < before ? "fell" : after > before ? "rose" : "stayed";
      return figure.label()
          + " "
          + verb
          + " "
          + figure.format(before)
          + " → "
          + figure.format(after)
          + note;
    }

    /** By what factor the figure moved; infinite when one side is 0 and the other is not. */
    double factor() {
      double lo = Math.min(Math.abs(before), Math.abs(after));
      double hi = Math.max(Math.abs(before), Math.abs(after));
      return hi == 0 ? 1.0 : lo == 0 ? Double.POSITIVE_INFINITY : hi / lo;
    }
  }

  Verdict judge(List<AppRun> refRuns, List<AppRun> trialRuns, List<Unit> units, double band) {
    AppRun lastRef = refRuns.get(refRuns.size() - 1);
    AppRun lastTrial = trialRuns.get(trialRuns.size() - 1);
    RunFigures ref = RunFigures.of(lastRef);
    RunFigures t = RunFigures.of(lastTrial);
    long refWall = Math.round(medianOf(refRuns, r -> (double) RunFigures.of(r).wallMs()));
    long wall = Math.round(medianOf(trialRuns, r -> (double) RunFigures.of(r).wallMs()));
    int n = trialRuns.size();
    double min = config.minImprovement();
    double threshold = Math.max(min, band / Math.sqrt(n));
    double wi = TuningPolicy.improvement(refWall, wall, config.wallNoiseMs());
    double bi = TuningPolicy.improvement(ref.blockedMs(), t.blockedMs(), config.blockedNoiseMs());
    Map<String, Double> ev = new TreeMap<>();
    ev.put("refWallMs", (double) refWall);
    ev.put("wallMs", (double) wall);
    ev.put("refBlockedMs", (double) ref.blockedMs());
    ev.put("blockedMs", (double) t.blockedMs());
    ev.put("refFailures", (double) ref.failures());
    ev.put("failures", (double) t.failures());
    ev.put("wallImprovement", wi);
    ev.put("blockedImprovement", bi);
    ev.put("wallNoiseBand", band);
    ev.put("trialRuns", (double) n);
    String wallText =
        String.format(
            Locale.ROOT,
            "wall time %s → %s (%+.1f%%%s, noise band ±%.0f%%)",
            secs(refWall),
            secs(wall),
            wi == 0 ? 0.0 : -100 * wi,
            n > 1 ? ", median of " + n + " runs" : "",
            100 * band);

    String fatal = null;
    if (t.failures() > ref.failures()) {
      fatal = "failed tasks rose " + ref.failures() + " → " + t.failures();
    } else if (t.failedRun() && !ref.failedRun()) {
      fatal = "the run failed";
    } else if (-wi > threshold) {
      fatal =
          String.format(
              Locale.ROOT,
              "wall time got worse by %.0f%%, beyond the noise band (±%.0f%%%s)",
              -100 * wi,
              100 * threshold,
              n > 1 ? " for " + n + " runs" : "");
    }
    List<UnitVerdict> out = new ArrayList<>();
    boolean anyKept = false;
    boolean inconclusive = false;
    for (Unit u : units) {
      Map<String, Double> uev = new TreeMap<>(ev);
      if (fatal != null) {
        out.add(new UnitVerdict(u, Evaluation.ROLLED_BACK, ": " + fatal + "; " + wallText, uev));
        continue;
      }
      if (u.figures().isEmpty()) { // wall time alone
        if (wi >= threshold && n >= 2) {
          anyKept = true;
          out.add(
              new UnitVerdict(
                  u,
                  Evaluation.KEPT,
                  ": judged on wall time alone, better over " + n + " runs: " + wallText,
                  uev));
        } else if (wi >= min && n < 2) {
          inconclusive = true;
          out.add(
              new UnitVerdict(
                  u,
                  Evaluation.INCONCLUSIVE,
                  ": judged on wall time alone, which needs two runs: " + wallText,
                  uev));
        } else {
          out.add(
              new UnitVerdict(
                  u,
                  Evaluation.ROLLED_BACK,
                  ": judged on wall time alone, which did not improve "
                      + "beyond the noise: "
                      + wallText,
                  uev));
        }
        continue;
      }
      List<FigureMove> moves = new ArrayList<>();
      for (Figure f : u.figures()) {
        FigureMove m = move(f, refRuns, trialRuns, threshold);
        moves.add(m);
        if (m.move() != Move.UNMEASURED) {
          uev.put("before." + f.key(), m.before());
          uev.put("after." + f.key(), m.after());
        }
      }
      List<String> worse = texts(moves, Move.WORSE);
      List<String> better = texts(moves, Move.BETTER);
      if (!worse.isEmpty()) {
        out.add(
            new UnitVerdict(
                u,
                Evaluation.ROLLED_BACK,
                " because " + String.join(" and ", worse) + "; " + wallText,
                uev));
      } else if (!better.isEmpty()) {
        anyKept = true;
        double response =
            moves.stream()
                .filter(m -> m.move() == Move.BETTER && m.figure().unit() != Figure.Unit.MILLIS)
                .mapToDouble(FigureMove::factor)
                .max()
                .orElse(1.0);
        out.add(
            new UnitVerdict(
                u,
                Evaluation.KEPT,
                " because " + String.join(" and ", better) + "; " + wallText,
                uev,
                response));
      } else if (moves.stream().allMatch(m -> m.move() == Move.UNMEASURED)) {
        List<String> kinds = u.figures().stream().map(f -> f.kind().label()).distinct().toList();
        out.add(
            new UnitVerdict(
                u,
                Evaluation.ROLLED_BACK,
                ": it cannot act on this job (no "
                    + String.join(" or ", kinds)
                    + " ran), so "
                    + wallText
                    + " is not credited to it",
                uev));
      } else {
        List<String> flat =
            moves.stream().filter(m -> m.move() == Move.FLAT).map(FigureMove::text).toList();
        out.add(
            new UnitVerdict(
                u,
                Evaluation.ROLLED_BACK,
                ": it moved nothing it acts on ("
                    + String.join(", ", flat)
                    + "), so "
                    + wallText
                    + " is not credited to it",
                uev));
      }
    }
    // a kept change whose first run looks worse, within the noise, runs once more before a verdict
    if (fatal == null && n < 2 && anyKept && -wi > min) {
      inconclusive = true;
    }
    if (inconclusive) {
      String why =
          String.format(
              Locale.ROOT,
              ": %s, within the noise: the trial runs once more before a verdict",
              wallText);
      List<UnitVerdict> pending = new ArrayList<>();
      for (UnitVerdict v : out) {
        pending.add(new UnitVerdict(v.unit(), Evaluation.INCONCLUSIVE, why, v.evidence()));
      }
      return new Verdict(Evaluation.INCONCLUSIVE, pending, why, ev);
    }
    return new Verdict(anyKept ? Evaluation.KEPT : Evaluation.ROLLED_BACK, out, wallText, ev);
  }

  /**
   * How a figure moved from the reference runs to the trial's: by at least its floor and {@code
   * minImprovement}. A timing figure (blocked time, longest reduce task) varies with the machine's
   * load as wall time does, so it counts as better only beyond the wall-time threshold ({@code
   * timingThreshold}: the job's noise band over the square root of the trial runs); it counts as
   * worse from {@code minImprovement} on, as every cost does. A failure count (fetch-failed tasks,
   * stage re-attempts) varies by a task or an attempt from run to run: against a single reference
   * run it counts as better only when it fell by more than one or to zero; against two or more
   * reference runs (medians) by the usual floor of one.
   */
  private FigureMove move(
      Figure f, List<AppRun> refRuns, List<AppRun> trialRuns, double timingThreshold) {
    boolean measured =
        refRuns.stream().anyMatch(f::measured) || trialRuns.stream().anyMatch(f::measured);
    double before = medianOf(refRuns, f::of);
    double after = medianOf(trialRuns, f::of);
    if (!measured) {
      return new FigureMove(f, before, after, Move.UNMEASURED);
    }
    double floor =
        f == Figure.BLOCKED_MS ? Math.max(f.floor(), config.blockedNoiseMs()) : f.floor();
    double diff = after - before;
    double rel = before == 0 ? (after == 0 ? 0 : 1) : Math.abs(diff) / Math.abs(before);
    if (Math.abs(diff) < floor || rel < config.minImprovement()) {
      return new FigureMove(f, before, after, Move.FLAT);
    }
    Move m =
        switch (f.better()) {
          case EITHER -> Move.BETTER;
          case LOWER -> diff < 0 ? Move.BETTER : Move.WORSE;
          case HIGHER -> diff > 0 ? Move.BETTER : Move.WORSE;
        };
    if (m == Move.BETTER && f.unit() == Figure.Unit.MILLIS && rel < timingThreshold) {
      m = Move.FLAT; // a timing that fell within the job's noise: not to the key's credit
    }
    if (m == Move.BETTER
        && f.unit() == Figure.Unit.COUNT
        && f.better() == Figure.Better.LOWER
        && refRuns.size() < 2
        && after > 0
        && before - after <= 1) {
      // a failure count varies by one from run to run: one fewer than a single reference run is
      // not to the key's credit
      return new FigureMove(
          f, before, after, Move.FLAT, " — by one, against a single reference run");
    }
    return new FigureMove(f, before, after, m);
  }

  private static List<String> texts(List<FigureMove> moves, Move kind) {
    return moves.stream().filter(m -> m.move() == kind).map(FigureMove::text).toList();
  }

  private static double medianOf(List<AppRun> runs, java.util.function.ToDoubleFunction<AppRun> f) {
    List<Double> xs = new ArrayList<>();
    runs.forEach(r -> xs.add(f.applyAsDouble(r)));
    xs.sort(Comparator.naturalOrder());
    int k = xs.size();
    return k % 2 == 1 ? xs.get(k / 2) : (xs.get(k / 2 - 1) + xs.get(k / 2)) / 2.0;
  }

  private static String secs(long ms) {
    return String.format(Locale.ROOT, "%.1f s", ms / 1000.0);
  }
}
