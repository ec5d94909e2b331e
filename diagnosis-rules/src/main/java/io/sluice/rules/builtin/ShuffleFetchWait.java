package io.sluice.rules.builtin;

import io.sluice.config.Unit;
import io.sluice.model.AppRun;
import io.sluice.model.Diagnosis;
import io.sluice.model.Recommendation;
import io.sluice.model.Severity;
import io.sluice.model.StageProfile;
import io.sluice.rules.Grades;
import io.sluice.rules.RuleSettings;
import io.sluice.rules.RunConf;
import io.sluice.rules.Sizes;
import io.sluice.rules.Threshold;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * SHUFFLE_FETCH_WAIT: reduce tasks spend a large share of their run time blocked on shuffle
 * fetches.
 */
public final class ShuffleFetchWait extends BuiltinRule {
  public static final String ID = "SHUFFLE_FETCH_WAIT";
  static final Threshold MIN_WAIT =
      Threshold.of(
          "minFetchWaitMs",
          Unit.MILLIS,
          2000,
          0,
          1e15,
          "A stage is judged only if its tasks waited at least this long for shuffle fetches in total.");
  static final Grades SHARE =
      Grades.rising(
          "fetchWaitShare",
          Unit.FRACTION,
          "a stage's fetch wait / executor run time",
          0.1,
          0.2,
          0.4,
          0.6,
          0,
          1);
  static final Threshold SMALL_BLOCK =
      Threshold.of(
          "smallBlockBytes",
          Unit.BYTES,
          Sizes.MIB,
          1,
          Sizes.TIB,
          "Below this average remote block size the wait is blamed on small blocks (recommend coalescing); above it "
              + "on too little data in flight (recommend spark.reducer.maxSizeInFlight).");
  static final Threshold TARGET =
      Threshold.of(
          "targetPartitionBytes",
          Unit.BYTES,
          64 * Sizes.MIB,
          Sizes.MIB,
          2 * Sizes.GIB,
          "Advisory partition size recommended when blocks are small.");

  public ShuffleFetchWait() {
    this(null);
  }

  private ShuffleFetchWait(RuleSettings s) {
    super(ID, declare(MIN_WAIT, SHARE, SMALL_BLOCK, TARGET), s, ShuffleFetchWait::new);
  }

  @Override
  public String description() {
    return "Shuffle fetch wait is a large share of the reduce tasks' run time.";
  }

  @Override
  public String documentation() {
    return "Judges every stage whose summed `shuffleFetchWaitMs` is at least `minFetchWaitMs` by "
        + "`fetchWaitShare` = fetch wait / executor run time; the highest share sets the severity. "
        + "When the stage's average remote block is below `smallBlockBytes` the wait comes from many small "
        + "random reads: recommends AQE coalescing towards `targetPartitionBytes` (AQE on, "
        + "`parallelismFirst=false`, advisory size). Otherwise recommends doubling "
        + "`spark.reducer.maxSizeInFlight` (default 48m, at most 256m) so more bytes are requested at once.";
  }

  @Override
  Diagnosis evaluate(AppRun run, RunConf conf) {
    WorstStage pick = WorstStage.highestMeasure();
    for (StageProfile s : reduceStages(run)) {
      if (s.shuffleFetchWaitMs() < get(MIN_WAIT) || s.executorRunTimeMs() <= 0) {
        continue;
      }
      if (!pick.offer(s, settings.grade(SHARE, s.fetchWaitShare()), s.fetchWaitShare())) {
        continue;
      }
    }
    if (pick.isEmpty()) {
      return none();
    }
    Severity worst = pick.severity();
    StageProfile w = pick.stage();
    List<Integer> flagged = pick.flagged();
    Map<String, Double> ev = evidence();
    ev.put("fetchWaitShare", w.fetchWaitShare());
    ev.put("shuffleFetchWaitMs", (double) w.shuffleFetchWaitMs());
    ev.put("executorRunTimeMs", (double) w.executorRunTimeMs());
    ev.put("avgRemoteBlockBytes", w.avgRemoteBlockBytes());
    ev.put("remoteBlocksFetched", (double) w.shuffleRemoteBlocksFetched());
    ev.put("shuffleRemoteBytesRead", (double) w.shuffleRemoteBytesRead());
    ev.put("flaggedStages", (double) flagged.size());
    String summary =
        String.format(
            Locale.ROOT,
            "%s waited %.1f s for shuffle fetches, %.0f%% of its tasks' run time (%d remote blocks of %s on average)",
            stage(w),
            w.shuffleFetchWaitMs() / 1000.0,
            100 * w.fetchWaitShare(),
            w.shuffleRemoteBlocksFetched(),
            bytes(w.avgRemoteBlockBytes()));
    List<Recommendation> recs = new ArrayList<>();
    if (w.avgRemoteBlockBytes() < get(SMALL_BLOCK)) {
      recs.addAll(
          coalescing(
              conf,
              (long) get(TARGET),
              "fetch wait is "
                  + Math.round(100 * w.fetchWaitShare())
                  + "% of run time with "
                  + bytes(w.avgRemoteBlockBytes())
                  + " blocks"));
    } else {
      long inFlight = Math.min(256 * Sizes.MIB, 2 * conf.maxSizeInFlightBytes());
      if (inFlight > conf.maxSizeInFlightBytes()) {
        recs.add(
            new Recommendation(
                RunConf.MAX_SIZE_IN_FLIGHT,
                Sizes.sparkBytes(inFlight),
                "blocks are large ("
                    + bytes(w.avgRemoteBlockBytes())
                    + ") yet tasks wait "
                    + Math.round(100 * w.fetchWaitShare())
                    + "% of run time: request more bytes at once (was "
                    + bytes(conf.maxSizeInFlightBytes())
                    + ")"));
      }
    }
    return diagnosis(worst, flagged, summary, ev, recs);
  }
}
