package io.sluice.tuner.policy;

import io.sluice.contracts.api.Change;
import io.sluice.model.AppRun;
import io.sluice.model.Diagnosis;
import io.sluice.model.Recommendation;
import io.sluice.rules.AllowList;
import io.sluice.rules.Figure;
import io.sluice.rules.Sizes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalDouble;
import java.util.TreeMap;

/**
 * The tuning policy, pure: the same portrait, memory, user conf and mode always give the same
 * {@link Outcome}. No clock, no I/O.
 *
 * <p><b>Replay.</b> The portrait's finished runs (SUCCEEDED or FAILED) are replayed oldest first.
 * The overlay a run ran with is its {@code injected} map. The first run is the baseline: its
 * overlay is the <i>kept</i> overlay and it is the <i>reference</i>. A later run with the kept
 * overlay joins the reference runs (the last {@value #REFERENCE_RUNS}; BASELINE). A run with a
 * different overlay is a trial, judged against the reference runs by {@link TrialJudge}: its
 * changed keys are grouped into units (one lever, or overlapping figures) and each unit is judged
 * first on the figures its keys declare in the allow-list, then wall time guards the whole trial
 * within the job's own noise band ({@link #band}). A unit that moved its figures is KEPT; one that
 * moved nothing (or cannot act on the job) or made a cost worse is ROLLED_BACK and every (key,
 * direction) it changed is rejected for good; a trial whose wall time looks worse within the noise,
 * or whose wall-time-only unit looks better on one run, is INCONCLUSIVE and runs once more. The
 * kept units' keys join the kept overlay and the trial's runs become the reference.
 *
 * <p><b>Drift.</b> A run whose input size differs from the median of the runs since the last
 * re-open by more than {@code inputDriftThreshold} re-opens the job: all rejections are forgotten;
 * a baseline run becomes the reference; a trial is not judged and the next run re-measures the kept
 * overlay. Exception: a trial that changed an input-split key ({@link #INPUT_SPLIT_KEYS}) and ran
 * with a different number of source-stage tasks than the reference is judged without the drift
 * test, because the proxy (map output records) moves with the number of map tasks when the map side
 * combines; if kept, the drift median restarts from it.
 *
 * <p><b>Proposal.</b> From the reference run's diagnoses at or above {@code minSeverity}, most
 * severe first (rule order within a severity), recommendations in the rule's order: skip keys off
 * the allow-list or values out of its bounds, keys the user set (when user keys win), keys already
 * chosen, values already in force, rejected directions, keys that move figures an already chosen
 * key of another lever moves (they could not be judged apart: they wait for a later trial); numbers
 * move at most {@code maxStepFactor} from the value in force, or its square when the key's last
 * step in the same direction was kept, judged alone, and moved a figure by at least the square root
 * of that step (then clamped to the allow-list); at most {@code maxChangesPerIteration} keys. After
 * an INCONCLUSIVE run the same trial repeats. No candidate above LOW: STABLE; candidates but none
 * usable: STABLE. FROZEN repeats the kept overlay without new changes; DISABLED gives an empty
 * overlay.
 *
 * <p><b>Operator trial.</b> An operator may ask for a trial ({@code key -> value}, allow-listed
 * keys and values, at most {@code maxChangesPerIteration} keys, no step bound): when the job is
 * ACTIVE and has a kept overlay, the next proposal is the kept overlay plus the trial (instead of
 * the rules' changes; keys the user set still win), and the run that carries it is judged like any
 * other trial (kept or rolled back). Rejections do not stop it: the operator asked explicitly.
 */
public final class TuningPolicy {
  /** How the job may be tuned. */
  public enum Mode {
    ACTIVE,
    FROZEN,
    DISABLED
  }

  private final PolicyConfig config;
  private final AllowList allowList;
  private final TrialJudge judge;

  public TuningPolicy(PolicyConfig config) {
    this(config, AllowList.defaults());
  }

  public TuningPolicy(PolicyConfig config, AllowList allowList) {
    this.config = Objects.requireNonNull(config, "config");
    this.allowList = Objects.requireNonNull(allowList, "allowList");
    this.judge = new TrialJudge(config);
  }

  public PolicyConfig config() {
    return config;
  }

  /** Where the replay stands after a run. */
  static final class Replay {
    Map<String, String> kept;
    final Map<String, Change> origins = new TreeMap<>();
    AppRun ref;
    RunFigures refFigures;
    final List<Long> regime = new ArrayList<>();
    long lastReopen;
    final Map<String, Rejection> rejections = new LinkedHashMap<>();
    Evaluation lastEvaluation;
    String lastReason;

    /** the runs with the kept overlay since it was kept (at most {@link #REFERENCE_RUNS}) */
    final List<AppRun> refRuns = new ArrayList<>();

    /** wall times of the baseline runs since the last re-open, by overlay: the job's noise band */
    final Map<Map<String, String>, List<Long>> baselineWalls = new java.util.HashMap<>();

    /**
     * key -> {direction, value} of its last kept step when that step was judged alone and moved a
     * figure in proportion to it: the next step from that value in that direction may be larger
     */
    final Map<String, String[]> momentum = new TreeMap<>();

    /** a trial whose first run was inconclusive: its overlay and its runs so far */
    Map<String, String> pending;

    final List<AppRun> pendingRuns = new ArrayList<>();
    String lastLaunchFailure = "";

    void reference(AppRun run, boolean sameOverlay) {
      if (!sameOverlay) {
        refRuns.clear();
      }
      refRuns.add(run);
      while (refRuns.size() > REFERENCE_RUNS) {
        refRuns.remove(0);
      }
      ref = run;
      refFigures = RunFigures.of(run);
      baselineWalls
          .computeIfAbsent(run.injected(), k -> new ArrayList<>())
          .add(refFigures.wallMs());
    }
  }

  /** Runs with the kept overlay whose medians are the reference of a trial. */
  static final int REFERENCE_RUNS = 3;

  /**
   * @param runsNewestFirst the job's portrait as the store returns it
   * @param memory rollbacks and the last re-open from the decision log
   * @param userConf the Spark confs the user set explicitly for this submission (may be empty)
   */
  public Outcome decide(
      List<AppRun> runsNewestFirst, Memory memory, Map<String, String> userConf, Mode mode) {
    return decide(runsNewestFirst, memory, userConf, mode, Map.of());
  }

  /**
   * As {@link #decide(List, Memory, Map, Mode)}, with an operator trial pending for the next
   * submission (may be empty). Entries off the allow-list or out of its bounds are dropped with a
   * reason.
   */
  public Outcome decide(
      List<AppRun> runsNewestFirst,
      Memory memory,
      Map<String, String> userConf,
      Mode mode,
      Map<String, String> operatorTrial) {
    Map<String, String> trial = operatorTrial == null ? Map.of() : operatorTrial;
    Map<String, String> user = userConf == null ? Map.of() : userConf;
    Replay st = new Replay();
    st.lastReopen = memory.lastReopenStart();
    for (Rejection r : memory.rejections()) {
      if (r.runStart() >= st.lastReopen) {
        st.rejections.putIfAbsent(r.key() + " " + r.direction(), r);
      }
    }
    List<AppRun> chronological = new ArrayList<>(runsNewestFirst);
    java.util.Collections.reverse(chronological);
    List<RunVerdict> verdicts = new ArrayList<>();
    List<Decision> decisions = new ArrayList<>();
    for (AppRun run : chronological) {
      RunFigures fig = RunFigures.of(run);
      Map<String, String> overlay = run.injected();
      if (!finished(run)) {
        verdicts.add(
            new RunVerdict(
                run.runKey(),
                run.appId(),
                run.startTime(),
                fig,
                overlay,
                Evaluation.IGNORED,
                "status " + run.status() + ": not judged",
                Map.of(),
                stateOf(st),
                List.of()));
        continue;
      }
      Evaluation eval;
      String reason;
      Map<String, Double> evidence = new TreeMap<>();
      double median = median(st.regime);
      // A trial that re-split the input changes the proxy itself (map-side output records move with
      // the number of
      // map tasks when the map side combines): its proxy is not comparable with the kept overlay's
      // runs.
      boolean resplit =
          st.kept != null
              && st.ref != null
              && !overlay.equals(st.kept)
              && changesInputSplits(st.kept, overlay)
              && sourceTasks(run) != sourceTasks(st.ref);
      boolean drift =
          st.kept != null
              && median > 0
              && !resplit
              && Math.abs(fig.inputSize() - median) / median > config.inputDriftThreshold();
      if (st.kept == null) {
        eval = Evaluation.BASELINE;
        reason = "first run of the portrait: baseline with overlay " + overlay;
        st.kept = new TreeMap<>(overlay);
        st.reference(run, false);
        st.regime.add(fig.inputSize());
      } else if (drift) {
        eval = Evaluation.REOPENED;
        evidence.put("inputSize", (double) fig.inputSize());
        evidence.put("medianInputSize", median);
        st.lastReopen = run.startTime();
        st.rejections.clear();
        st.momentum.clear();
        st.regime.clear();
        st.regime.add(fig.inputSize());
        st.baselineWalls.clear();
        st.pending = null;
        st.pendingRuns.clear();
        String size =
            String.format(
                Locale.ROOT,
                "input size %d drifted %.0f%% from the median %.0f",
                fig.inputSize(),
                100 * (fig.inputSize() - median) / median,
                median);
        if (overlay.equals(st.kept)) {
          st.reference(run, false);
          reason = size + ": re-opened, rollbacks forgotten, this run is the new reference";
        } else {
          st.ref = null;
          st.refFigures = null;
          st.refRuns.clear();
          reason =
              size
                  + ": re-opened, rollbacks forgotten; the trial "
                  + delta(st.kept, overlay)
                  + " is not judged and the kept overlay is measured again";
        }
        decisions.add(
            new Decision(
                run.runKey(), run.startTime(), Evaluation.REOPENED, "", "", "", reason, evidence));
      } else if (overlay.equals(st.kept) || st.ref == null) {
        eval = Evaluation.BASELINE;
        reason =
            overlay.equals(st.kept)
                ? "ran with the kept overlay: the new reference"
                : "no reference after the re-open: its overlay "
                    + overlay
                    + " is adopted as the baseline";
        boolean same = st.ref != null && overlay.equals(st.kept);
        st.kept = new TreeMap<>(overlay);
        st.reference(run, same);
        st.pending = null;
        st.pendingRuns.clear();
        st.regime.add(fig.inputSize());
      } else {
        if (!overlay.equals(st.pending)) {
          st.pending = null;
          st.pendingRuns.clear();
        }
        st.pendingRuns.add(run);
        List<String[]> changed = changedKeys(st.kept, overlay, st.ref);
        TrialJudge.Verdict j =
            judge.judge(
                List.copyOf(st.refRuns), List.copyOf(st.pendingRuns), units(changed), band(st));
        evidence.putAll(j.evidence());
        String resplitNote = "";
        if (resplit) {
          evidence.put("sourceTasks", (double) sourceTasks(run));
          evidence.put("refSourceTasks", (double) sourceTasks(st.ref));
          resplitNote =
              String.format(
                  Locale.ROOT,
                  " (the trial re-split the input: %d -> %d map tasks, input size "
                      + "proxy %d -> %d not compared)",
                  sourceTasks(st.ref),
                  sourceTasks(run),
                  st.refFigures.inputSize(),
                  fig.inputSize());
        } else {
          st.regime.add(fig.inputSize());
        }
        if (j.evaluation() == Evaluation.INCONCLUSIVE) {
          eval = Evaluation.INCONCLUSIVE;
          reason = "trial " + delta(st.kept, overlay) + j.wall() + resplitNote;
          st.pending = new TreeMap<>(overlay);
        } else {
          Map<String, String> newKept = new TreeMap<>(st.kept);
          List<String> parts = new ArrayList<>();
          for (TrialJudge.UnitVerdict uv : j.units()) {
            boolean keep = uv.evaluation() == Evaluation.KEPT;
            String why =
                (keep ? "kept " : "rolled back ") + uv.unit().keys() + uv.why() + resplitNote;
            parts.add(why);
            evidence.putAll(uv.evidence());
            for (String[] c : uv.unit().changes()) {
              decisions.add(
                  new Decision(
                      run.runKey(),
                      run.startTime(),
                      uv.evaluation(),
                      c[0],
                      c[1],
                      c[3],
                      why,
                      uv.evidence()));
              if (keep && inProportion(uv, c)) {
                st.momentum.put(c[0], new String[] {c[1], c[3]});
              } else {
                st.momentum.remove(c[0]);
              }
              if (keep) {
                st.origins.put(c[0], origin(st.ref, c[0], overlay.get(c[0]), c[2]));
                if (overlay.containsKey(c[0])) {
                  newKept.put(c[0], overlay.get(c[0]));
                } else {
                  newKept.remove(c[0]);
                }
              } else if (!c[1].isEmpty()) {
                st.rejections.putIfAbsent(
                    c[0] + " " + c[1],
                    new Rejection(c[0], c[1], c[3], run.runKey(), run.startTime(), why));
              }
            }
          }
          reason = String.join("; ", parts);
          eval = j.evaluation();
          if (eval == Evaluation.KEPT) {
            if (resplit) { // the proxy's scale moved with the splits: later runs are compared with
              // this one
              st.regime.clear();
              st.regime.add(fig.inputSize());
            }
            st.origins.keySet().retainAll(newKept.keySet());
            st.kept = newKept;
            List<AppRun> trialRuns = List.copyOf(st.pendingRuns);
            st.refRuns.clear();
            st.refRuns.addAll(trialRuns);
            st.ref = run;
            st.refFigures = fig;
          }
          st.pending = null;
          st.pendingRuns.clear();
        }
      }
      st.lastEvaluation = eval;
      st.lastReason = reason;
      Proposal p = propose(st, Map.of(), Mode.ACTIVE);
      verdicts.add(
          new RunVerdict(
              run.runKey(),
              run.appId(),
              run.startTime(),
              fig,
              overlay,
              eval,
              reason,
              evidence,
              p.state,
              p.changes));
    }
    int failedInARow = launchFailures(st, memory, chronological, decisions);
    Proposal p =
        trial.isEmpty() || mode != Mode.ACTIVE || st.kept == null
            ? propose(st, user, mode)
            : proposeTrial(st, user, trial);
    if (failedInARow >= config.maxLaunchFailures() && mode != Mode.DISABLED) {
      List<String> reasons = new ArrayList<>(p.reasons());
      reasons.add(
          "frozen: the last "
              + failedInARow
              + " launches failed before the application ran ("
              + st.lastLaunchFailure
              + "); no overlay until an operator unfreezes the job");
      p = new Proposal(JobState.FROZEN, Map.of(), List.of(), reasons);
    }
    java.util.Collections.reverse(verdicts);
    return new Outcome(
        p.state,
        p.overlay,
        p.changes,
        p.reasons,
        verdicts,
        List.copyOf(st.rejections.values()),
        decisions);
  }

  /**
   * Applies the launches that failed before their application ran (those of the memory not
   * re-opened away and without a profiled run of their submission): every key whose value differed
   * from the kept overlay is rolled back and its direction rejected, as for a trial that made
   * things worse. Returns how many launches in a row, after the newest run, failed.
   */
  private int launchFailures(
      Replay st, Memory memory, List<AppRun> chronological, List<Decision> decisions) {
    java.util.Set<String> ran = new java.util.HashSet<>();
    long lastRun = 0;
    for (AppRun r : chronological) {
      String id = r.conf().get(SUBMISSION_ID);
      if (id != null) {
        ran.add(id);
      }
      lastRun = Math.max(lastRun, r.startTime());
    }
    List<LaunchFailure> failures = new ArrayList<>(memory.launchFailures());
    failures.sort(Comparator.comparingLong(LaunchFailure::at));
    int inARow = 0;
    for (LaunchFailure f : failures) {
      if (ran.contains(f.submissionId()) || f.at() < st.lastReopen) {
        continue;
      }
      String why =
          "the launch failed before the application ran (spark-submit exited "
              + f.exitCode()
              + (f.detail().isEmpty() ? "" : ": " + f.detail())
              + ")";
      if (f.at() > lastRun) {
        inARow++;
        st.lastLaunchFailure = why;
      }
      AppRun ref =
          st.ref != null
              ? st.ref
              : chronological.isEmpty() ? null : chronological.get(chronological.size() - 1);
      if (st.kept == null || ref == null) {
        continue;
      }
      List<String> parts = new ArrayList<>();
      for (String[] c : changedKeys(st.kept, f.overlay(), ref)) {
        String reason =
            "rolled back " + c[0] + "=" + (c[3].isEmpty() ? "(unset)" : c[3]) + ": " + why;
        parts.add(c[0] + "=" + c[3]);
        decisions.add(
            new Decision(
                f.runKey(),
                f.at(),
                Evaluation.ROLLED_BACK,
                c[0],
                c[1],
                c[3],
                reason,
                Map.of("exitCode", (double) f.exitCode())));
        if (!c[1].isEmpty()) {
          st.rejections.putIfAbsent(
              c[0] + " " + c[1], new Rejection(c[0], c[1], c[3], f.runKey(), f.at(), reason));
        }
      }
      if (f.at() > lastRun && !parts.isEmpty()) {
        st.lastEvaluation = Evaluation.ROLLED_BACK;
        st.lastReason = "rolled back " + String.join(", ", parts) + ": " + why;
        if (f.overlay().equals(st.pending)) {
          st.pending = null;
          st.pendingRuns.clear();
        }
      }
    }
    return inARow;
  }

  /** The marker that ties a run to its submission. */
  static final String SUBMISSION_ID = "spark.sluice.submission.id";

  /** Keys that change how file input is split into map tasks. */
  static final java.util.Set<String> INPUT_SPLIT_KEYS =
      java.util.Set.of(
          "spark.sql.files.maxPartitionBytes",
          "spark.sql.files.openCostInBytes",
          "spark.sql.files.minPartitionNum");

  private static boolean changesInputSplits(Map<String, String> kept, Map<String, String> trial) {
    for (String k : INPUT_SPLIT_KEYS) {
      if (!Objects.equals(kept.get(k), trial.get(k))) {
        return true;
      }
    }
    return false;
  }

  /**
   * Tasks of the first attempts of the stages the input-size proxy counts (read no shuffle, write
   * one).
   */
  static long sourceTasks(AppRun run) {
    long n = 0;
    for (io.sluice.model.StageProfile s : run.stages()) {
      if (s.stageAttemptId() == 0
          && s.shuffleRecordsRead() == 0
          && s.shuffleBytesRead() == 0
          && s.shuffleWriteRecords() > 0) {
        n += s.numTasks();
      }
    }
    return n;
  }

  private static boolean finished(AppRun run) {
    return "SUCCEEDED".equals(run.status()) || "FAILED".equals(run.status());
  }

  private static JobState stateOf(Replay st) {
    return st.kept == null ? JobState.NEW : JobState.TUNING;
  }

  /**
   * Keys whose value differs between the kept overlay and a trial's: {key, direction, previous,
   * value}.
   */
  private List<String[]> changedKeys(
      Map<String, String> kept, Map<String, String> trial, AppRun ref) {
    List<String[]> out = new ArrayList<>();
    java.util.SortedSet<String> keys = new java.util.TreeSet<>(kept.keySet());
    keys.addAll(trial.keySet());
    for (String k : keys) {
      String before = kept.get(k);
      String after = trial.get(k);
      if (Objects.equals(before, after)) {
        continue;
      }
      String from = before != null ? before : ConfValues.inForce(k, ref.conf(), ref.sparkVersion());
      String to = after != null ? after : ConfValues.inForce(k, Map.of(), ref.sparkVersion());
      String dir =
          allowList.key(k).map(key -> ConfValues.direction(key, from, to)).orElse("=" + to);
      out.add(new String[] {k, "same".equals(dir) ? "" : dir, from, after == null ? "" : after});
    }
    return out;
  }

  private static String delta(Map<String, String> kept, Map<String, String> trial) {
    List<String> parts = new ArrayList<>();
    java.util.SortedSet<String> keys = new java.util.TreeSet<>(kept.keySet());
    keys.addAll(trial.keySet());
    for (String k : keys) {
      if (!Objects.equals(kept.get(k), trial.get(k))) {
        parts.add(
            k + "=" + (trial.get(k) == null ? "(unset, was " + kept.get(k) + ")" : trial.get(k)));
      }
    }
    return String.join(", ", parts);
  }

  /**
   * Whether a kept change was judged alone (its unit holds no other key) and moved a figure other
   * than a timing by at least the square root of its own step: {@code 200 -> 50} partitions (x4)
   * that moved the average block size 171 B -> 485 B (x2.8 >= 2) acted in proportion; 250 B -> 300
   * B (x1.2) did not.
   */
  private boolean inProportion(TrialJudge.UnitVerdict uv, String[] c) {
    if (uv.unit().changes().size() != 1 || c[1].isEmpty() || c[3].isEmpty()) {
      return false;
    }
    java.util.Optional<AllowList.Key> key = allowList.key(c[0]);
    if (key.isEmpty() || !ConfValues.numeric(key.get().kind())) {
      return false;
    }
    OptionalDouble from = ConfValues.number(key.get(), c[2]);
    OptionalDouble to = ConfValues.number(key.get(), c[3]);
    if (from.isEmpty() || to.isEmpty() || from.getAsDouble() <= 0 || to.getAsDouble() <= 0) {
      return false;
    }
    double step =
        Math.max(from.getAsDouble(), to.getAsDouble())
            / Math.min(from.getAsDouble(), to.getAsDouble());
    return uv.response() >= Math.sqrt(step);
  }

  /** The rule of the reference run that recommended a key, for the kept overlay's reasons. */
  private static Change origin(AppRun ref, String key, String value, String previous) {
    for (Diagnosis d : ref.diagnoses()) {
      for (Recommendation r : d.recommendations()) {
        if (r.key().equals(key)) {
          return new Change(key, value, previous, d.ruleId(), r.reason(), d.evidence());
        }
      }
    }
    return new Change(
        key,
        value,
        previous,
        "EXTERNAL",
        "not recommended by a rule of the reference run",
        Map.of());
  }

  // ---------------------------------------------------------------- judging

  /**
   * The changed keys grouped into the units judged as one change: keys of one lever together, and
   * keys whose figures overlap merged (their effects cannot be told apart). Keys off the allow-list
   * are judged on wall time alone.
   */
  List<TrialJudge.Unit> units(List<String[]> changed) {
    List<List<String[]>> groups = new ArrayList<>();
    List<java.util.Set<Figure>> figs = new ArrayList<>();
    List<String> levers = new ArrayList<>();
    for (String[] c : changed) {
      java.util.Optional<AllowList.Key> key = allowList.key(c[0]);
      String lever = key.map(AllowList.Key::lever).orElse(c[0]);
      java.util.Set<Figure> f =
          new java.util.LinkedHashSet<>(key.map(AllowList.Key::figures).orElse(List.of()));
      int into = -1;
      for (int i = 0; i < groups.size(); i++) {
        if (levers.get(i).equals(lever) || !java.util.Collections.disjoint(figs.get(i), f)) {
          into = i;
          break;
        }
      }
      if (into < 0) {
        groups.add(new ArrayList<>());
        figs.add(new java.util.LinkedHashSet<>());
        levers.add(lever);
        into = groups.size() - 1;
      }
      groups.get(into).add(c);
      figs.get(into).addAll(f);
    }
    List<TrialJudge.Unit> out = new ArrayList<>();
    for (int i = 0; i < groups.size(); i++) {
      out.add(new TrialJudge.Unit(groups.get(i), List.copyOf(figs.get(i))));
    }
    return out;
  }

  /**
   * The job's wall-time noise band: the median over the overlays with two or more baseline runs
   * (since the last re-open) of their relative spread (max - min) / median; {@code wallNoiseBand}
   * while no overlay has two.
   */
  double band(Replay st) {
    List<Double> spreads = new ArrayList<>();
    for (List<Long> walls : st.baselineWalls.values()) {
      List<Long> recent = walls.subList(Math.max(0, walls.size() - 5), walls.size());
      double med = median(recent);
      if (recent.size() >= 2 && med > 0) {
        long max = recent.stream().mapToLong(Long::longValue).max().orElse(0);
        long min = recent.stream().mapToLong(Long::longValue).min().orElse(0);
        spreads.add((max - min) / med);
      }
    }
    if (spreads.isEmpty()) {
      return config.wallNoiseBand();
    }
    spreads.sort(Comparator.naturalOrder());
    int n = spreads.size();
    double b = n % 2 == 1 ? spreads.get(n / 2) : (spreads.get(n / 2 - 1) + spreads.get(n / 2)) / 2;
    return Math.min(1.0, b);
  }

  /**
   * (old - new) / old; 0 when the difference is below the noise floor; -1 when old was 0 and new is
   * not.
   */
  static double improvement(long old, long now, long noise) {
    if (Math.abs(old - now) < noise || old == now) {
      return 0;
    }
    if (old == 0) {
      return -1;
    }
    return (double) (old - now) / old;
  }

  static double median(List<Long> xs) {
    if (xs.isEmpty()) {
      return 0;
    }
    List<Long> s = new ArrayList<>(xs);
    s.sort(Comparator.naturalOrder());
    int n = s.size();
    return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2.0;
  }

  // ---------------------------------------------------------------- proposing

  private record Proposal(
      JobState state, Map<String, String> overlay, List<Change> changes, List<String> reasons) {}

  private Proposal propose(Replay st, Map<String, String> user, Mode mode) {
    List<String> reasons = new ArrayList<>();
    if (mode == Mode.DISABLED) {
      reasons.add("tuning is disabled for this job: no overlay");
      return new Proposal(JobState.DISABLED, Map.of(), List.of(), reasons);
    }
    if (st.kept == null) {
      reasons.add("no finished run of this job yet: no overlay");
      return new Proposal(JobState.NEW, Map.of(), List.of(), reasons);
    }
    Map<String, String> overlay = new TreeMap<>();
    for (Map.Entry<String, String> e : st.kept.entrySet()) {
      String k = e.getKey();
      Recommendation asRec = new Recommendation(k, e.getValue(), "");
      java.util.Optional<String> off = allowList.check(asRec);
      if (off.isPresent()) {
        reasons.add("dropped " + k + "=" + e.getValue() + " from the kept overlay: " + off.get());
      } else if (config.userKeysWin() && user.containsKey(k)) {
        reasons.add(
            "kept "
                + k
                + "="
                + e.getValue()
                + " not applied: the user set "
                + k
                + "="
                + user.get(k));
      } else {
        overlay.put(k, e.getValue());
        Change o = st.origins.get(k);
        reasons.add("keeps " + k + "=" + e.getValue() + (o == null ? "" : " (" + o.ruleId() + ")"));
      }
    }
    if (st.lastEvaluation == Evaluation.ROLLED_BACK
        || st.lastEvaluation == Evaluation.KEPT
        || st.lastEvaluation == Evaluation.REOPENED
        || st.lastEvaluation == Evaluation.INCONCLUSIVE) {
      reasons.add(st.lastReason);
    }
    if (mode == Mode.FROZEN) {
      reasons.add("frozen: the last kept overlay is repeated and no new change is tried");
      return new Proposal(JobState.FROZEN, overlay, List.of(), reasons);
    }
    if (st.ref == null) {
      reasons.add("re-measuring the kept overlay at the new input size before any new change");
      return new Proposal(JobState.TUNING, overlay, List.of(), reasons);
    }
    if (st.pending != null) {
      Map<String, String> again = new TreeMap<>();
      st.pending.forEach(
          (k, v) -> {
            if (allowList.check(new Recommendation(k, v, "")).isEmpty()
                && !(config.userKeysWin() && user.containsKey(k))) {
              again.put(k, v);
            }
          });
      reasons.add("the trial " + delta(st.kept, st.pending) + " runs once more before a verdict");
      return new Proposal(JobState.TUNING, again, List.of(), reasons);
    }
    List<Diagnosis> firing = new ArrayList<>();
    for (Diagnosis d : st.ref.diagnoses()) {
      if (d.severity().atLeast(config.minSeverity()) && !d.recommendations().isEmpty()) {
        firing.add(d);
      }
    }
    firing.sort(
        Comparator.comparing(Diagnosis::severity)
            .reversed()); // stable: rule order within a severity
    if (firing.isEmpty()) {
      reasons.add(
          "no rule fired at "
              + config.minSeverity()
              + " or above on "
              + st.ref.appId()
              + ": stable");
      return new Proposal(JobState.STABLE, overlay, List.of(), reasons);
    }
    List<Change> changes = new ArrayList<>();
    List<String> skipped = new ArrayList<>();
    for (Diagnosis d : firing) {
      for (Recommendation r : d.recommendations()) {
        if (changes.size() >= config.maxChangesPerIteration()) {
          break;
        }
        candidate(st, user, overlay, changes, d, r).ifPresent(skipped::add);
      }
    }
    for (Change c : changes) {
      reasons.add(
          c.ruleId()
              + ": "
              + c.key()
              + "="
              + c.value()
              + (c.previous() == null ? "" : " (was " + c.previous() + ")")
              + ": "
              + c.reason());
    }
    reasons.addAll(skipped);
    if (changes.isEmpty()) {
      reasons.add("rules fired on " + st.ref.appId() + " but nothing is left to try: stable");
      return new Proposal(JobState.STABLE, overlay, List.of(), reasons);
    }
    return new Proposal(JobState.TUNING, overlay, changes, reasons);
  }

  /** The kept overlay plus the operator's trial. */
  private Proposal proposeTrial(Replay st, Map<String, String> user, Map<String, String> trial) {
    Proposal base =
        propose(st, user, Mode.FROZEN); // the kept overlay and its reasons, no rule changes
    Map<String, String> overlay = new TreeMap<>(base.overlay());
    List<String> reasons = new ArrayList<>(base.reasons());
    reasons.removeIf(r -> r.startsWith("frozen:"));
    List<Change> changes = new ArrayList<>();
    for (Map.Entry<String, String> e : new TreeMap<>(trial).entrySet()) {
      String k = e.getKey();
      String v = e.getValue() == null ? "" : e.getValue().trim();
      java.util.Optional<String> off = allowList.check(new Recommendation(k, v, ""));
      if (off.isPresent()) {
        reasons.add("operator trial " + k + "=" + v + " dropped: " + off.get());
      } else if (config.userKeysWin() && user.containsKey(k)) {
        reasons.add(
            "operator trial "
                + k
                + "="
                + v
                + " not applied: the user set "
                + k
                + "="
                + user.get(k));
      } else if (changes.size() >= config.maxChangesPerIteration()) {
        reasons.add(
            "operator trial "
                + k
                + "="
                + v
                + " dropped: at most "
                + config.maxChangesPerIteration()
                + " keys per iteration");
      } else {
        String previous =
            overlay.containsKey(k) ? overlay.get(k) : st.ref != null ? st.ref.conf().get(k) : null;
        changes.add(
            new Change(
                k,
                v,
                previous,
                OPERATOR,
                "operator trial: judged on the run that carries it",
                Map.of()));
        overlay.put(k, v);
        reasons.add(
            OPERATOR
                + ": "
                + k
                + "="
                + v
                + (previous == null ? "" : " (was " + previous + ")")
                + ": operator trial");
      }
    }
    if (changes.isEmpty()) { // nothing usable: the rules' proposal, with why the trial was dropped
      Proposal rules = propose(st, user, Mode.ACTIVE);
      List<String> all = new ArrayList<>(rules.reasons());
      all.addAll(reasons.stream().filter(r -> r.startsWith("operator trial ")).toList());
      return new Proposal(rules.state(), rules.overlay(), rules.changes(), all);
    }
    return new Proposal(JobState.TUNING, overlay, changes, reasons);
  }

  /** The rule id of an operator trial's changes. */
  public static final String OPERATOR = "OPERATOR";

  /**
   * Adds the change a recommendation gives, or returns why it was skipped (empty when silently
   * redundant).
   */
  private java.util.Optional<String> candidate(
      Replay st,
      Map<String, String> user,
      Map<String, String> overlay,
      List<Change> changes,
      Diagnosis d,
      Recommendation r) {
    java.util.Optional<AllowList.Key> key = allowList.key(r.key());
    if (key.isEmpty() || allowList.check(r).isPresent()) {
      return java.util.Optional.of("skipped " + r.key() + "=" + r.value() + ": not allowed");
    }
    String k = r.key();
    if (changes.stream().anyMatch(c -> c.key().equals(k))) {
      return java.util.Optional.empty();
    }
    if (config.userKeysWin() && user.containsKey(k)) {
      return java.util.Optional.of(
          "skipped "
              + k
              + "="
              + r.value()
              + " ("
              + d.ruleId()
              + "): the user set "
              + k
              + "="
              + user.get(k));
    }
    String previous =
        user.containsKey(k)
            ? user.get(k)
            : overlay.containsKey(k) ? overlay.get(k) : st.ref.conf().get(k);
    String inForce =
        previous != null
            ? previous.trim()
            : ConfValues.inForce(k, st.ref.conf(), st.ref.sparkVersion());
    String[] last = st.momentum.get(k);
    boolean onward =
        inForce != null
            && last != null
            && ConfValues.same(key.get(), inForce, last[1])
            && ConfValues.direction(key.get(), inForce, r.value()).equals(last[0]);
    double factor =
        onward ? config.maxStepFactor() * config.maxStepFactor() : config.maxStepFactor();
    String value = step(key.get(), inForce, r.value(), factor);
    if (inForce != null && ConfValues.same(key.get(), inForce, value)) {
      return java.util.Optional.empty();
    }
    String dir =
        inForce == null
            ? "=" + value.toLowerCase(Locale.ROOT)
            : ConfValues.direction(key.get(), inForce, value);
    Rejection rejected = st.rejections.get(k + " " + dir);
    if (rejected != null) {
      return java.util.Optional.of(
          "not retried "
              + k
              + " "
              + dir
              + " ("
              + d.ruleId()
              + "): rolled back after "
              + rejected.runKey());
    }
    if (allowList.check(new Recommendation(k, value, "")).isPresent()) {
      return java.util.Optional.of(
          "skipped " + k + "=" + value + ": the bounded step is not allowed");
    }
    for (Change c : changes) {
      java.util.Optional<String> shared = sharedFigures(c.key(), k);
      if (shared.isPresent()) {
        return java.util.Optional.of(
            "not tried with "
                + c.key()
                + " ("
                + d.ruleId()
                + "): "
                + k
                + "="
                + value
                + " moves the same figures ("
                + shared.get()
                + "), so the two are tried one at a time");
      }
    }
    String reason =
        value.equals(r.value())
            ? r.reason()
            : r.reason()
                + " (target "
                + r.value()
                + "; at most x"
                + Sizes.plain(factor)
                + " per run from "
                + inForce
                + (onward
                    ? ", the last step in this direction having moved its figures in proportion"
                    : "")
                + ")";
    changes.add(new Change(k, value, previous, d.ruleId(), reason, d.evidence()));
    overlay.put(k, value);
    return java.util.Optional.empty();
  }

  /**
   * The figures two keys of different levers both act on (they cannot be judged apart), or empty.
   */
  private java.util.Optional<String> sharedFigures(String a, String b) {
    java.util.Optional<AllowList.Key> ka = allowList.key(a);
    java.util.Optional<AllowList.Key> kb = allowList.key(b);
    if (ka.isEmpty() || kb.isEmpty() || ka.get().lever().equals(kb.get().lever())) {
      return java.util.Optional.empty();
    }
    List<String> both =
        ka.get().figures().stream()
            .filter(kb.get().figures()::contains)
            .map(Figure::label)
            .toList();
    return both.isEmpty()
        ? java.util.Optional.empty()
        : java.util.Optional.of(String.join(", ", both));
  }

  /**
   * A numeric target moved at most maxStepFactor from the value in force, then clamped to the
   * allow-list.
   */
  String step(AllowList.Key key, String inForce, String target) {
    return step(key, inForce, target, config.maxStepFactor());
  }

  /**
   * A numeric target moved at most {@code f} from the value in force, then clamped to the
   * allow-list.
   */
  String step(AllowList.Key key, String inForce, String target, double f) {
    if (!ConfValues.numeric(key.kind())) {
      return target.trim();
    }
    OptionalDouble cur = ConfValues.number(key, inForce);
    OptionalDouble want = ConfValues.number(key, target);
    if (cur.isEmpty() || want.isEmpty() || cur.getAsDouble() <= 0) {
      return target.trim();
    }
    double lo = cur.getAsDouble() / f;
    double hi = cur.getAsDouble() * f;
    double v = want.getAsDouble();
    if (v >= lo && v <= hi) {
      return target.trim();
    }
    if (key.kind() == AllowList.Kind.INT) {
      v = v < lo ? Math.ceil(lo) : Math.floor(hi);
    } else {
      v = Math.max(lo, Math.min(hi, v));
    }
    v = Math.max(key.min(), Math.min(key.max(), v));
    return ConfValues.format(key, v);
  }
}
