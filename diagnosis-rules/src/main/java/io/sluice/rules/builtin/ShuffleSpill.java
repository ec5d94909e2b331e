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

/** SHUFFLE_SPILL: stages spill to disk a lot relative to the shuffle bytes they handle. */
public final class ShuffleSpill extends BuiltinRule {
  public static final String ID = "SHUFFLE_SPILL";
  static final Threshold MIN_SPILL =
      Threshold.of(
          "minDiskSpillBytes",
          Unit.BYTES,
          32 * Sizes.MIB,
          0,
          Sizes.TIB * 1024,
          "A stage is judged only if it spilled at least this many bytes to disk.");
  static final Grades RATIO =
      Grades.rising(
          "spillRatio",
          Unit.RATIO,
          "a stage's disk bytes spilled / max(shuffle bytes read, shuffle bytes written)",
          0.1,
          0.5,
          1,
          3,
          0,
          1e12);
  static final Threshold TARGET_FRACTION =
      Threshold.of(
          "targetMemoryFraction",
          Unit.FRACTION,
          0.6,
          0.3,
          0.9,
          "spark.memory.fraction recommended when the run's is below it.");

  public ShuffleSpill() {
    this(null);
  }

  private ShuffleSpill(RuleSettings s) {
    super(ID, declare(MIN_SPILL, RATIO, TARGET_FRACTION), s, ShuffleSpill::new);
  }

  @Override
  public String description() {
    return "Stages spill to disk a lot relative to the shuffle bytes they read or write (memory too small).";
  }

  @Override
  public String documentation() {
    return "Judges every stage that spilled at least `minDiskSpillBytes` to disk by `spillRatio` = "
        + "`diskBytesSpilled` / max(shuffle bytes read, shuffle bytes written) (the spilled bytes are an extra "
        + "write and read of the stage's data); the highest ratio sets the severity. Stages that neither read nor write "
        + "a shuffle are not judged.\n\n"
        + "Recommends `spark.memory.fraction` = `targetMemoryFraction` (Spark's default 0.6) when the run's is "
        + "lower, otherwise doubling `spark.executor.memory` (default 1g, at most 64g); and, when a spilling stage "
        + "reads a shuffle, twice the shuffle partitions (`spark.sql.shuffle.partitions`, default 200) so each "
        + "task sorts or aggregates half as much.";
  }

  @Override
  Diagnosis evaluate(AppRun run, RunConf conf) {
    WorstStage pick = WorstStage.highestMeasure();
    boolean reduceSpills = false;
    long spillTotal = 0;
    for (StageProfile s : run.stages()) {
      if (s.diskBytesSpilled() < get(MIN_SPILL)
          || s.diskBytesSpilled() == 0
          || Math.max(s.shuffleBytesRead(), s.shuffleWriteBytes()) == 0) {
        continue;
      }
      double ratio = ratio(s);
      if (!pick.offer(s, settings.grade(RATIO, ratio), ratio)) {
        continue;
      }
      spillTotal += s.diskBytesSpilled();
      reduceSpills |= s.shuffleBytesRead() > 0;
    }
    if (pick.isEmpty()) {
      return none();
    }
    Severity worst = pick.severity();
    StageProfile w = pick.stage();
    List<Integer> flagged = pick.flagged();
    double wRatio = pick.measure();
    Map<String, Double> ev = evidence();
    ev.put("spillRatio", wRatio);
    ev.put("diskBytesSpilled", (double) w.diskBytesSpilled());
    ev.put("memoryBytesSpilled", (double) w.memoryBytesSpilled());
    ev.put("shuffleBytesRead", (double) w.shuffleBytesRead());
    ev.put("shuffleWriteBytes", (double) w.shuffleWriteBytes());
    ev.put("diskBytesSpilledFlaggedStages", (double) spillTotal);
    ev.put("memoryFraction", conf.memoryFraction());
    ev.put("executorMemoryBytes", (double) conf.executorMemoryBytes());
    String summary =
        String.format(
            Locale.ROOT,
            "%s spilled %s to disk (%s in memory form), %.2fx the %s of shuffle data it handled; %d stage(s) spill",
            stage(w),
            bytes(w.diskBytesSpilled()),
            bytes(w.memoryBytesSpilled()),
            wRatio,
            bytes(Math.max(w.shuffleBytesRead(), w.shuffleWriteBytes())),
            flagged.size());
    List<Recommendation> recs = new ArrayList<>();
    double target = get(TARGET_FRACTION);
    if (conf.memoryFraction() < target) {
      recs.add(
          new Recommendation(
              RunConf.MEMORY_FRACTION,
              Sizes.plain(target),
              "execution memory is spark.memory.fraction="
                  + Sizes.plain(conf.memoryFraction())
                  + " of the heap; spills of "
                  + bytes(spillTotal)
                  + " show it is too small"));
    } else {
      long mem = Math.min(64 * Sizes.GIB, 2 * conf.executorMemoryBytes());
      if (mem > conf.executorMemoryBytes()) {
        recs.add(
            new Recommendation(
                RunConf.EXECUTOR_MEMORY,
                Sizes.sparkBytes(mem),
                "double the executor heap (was "
                    + bytes(conf.executorMemoryBytes())
                    + ") to hold what spills ("
                    + bytes(spillTotal)
                    + ")"));
      }
    }
    if (reduceSpills) {
      long partitions = Math.min(100_000, 2 * conf.shufflePartitions());
      if (partitions > conf.shufflePartitions()) {
        recs.add(
            new Recommendation(
                RunConf.SHUFFLE_PARTITIONS,
                Long.toString(partitions),
                "halve the data each reduce task sorts or aggregates (was "
                    + conf.shufflePartitions()
                    + " partitions)"));
      }
    }
    return diagnosis(worst, flagged, summary, ev, recs);
  }

  private static double ratio(StageProfile s) {
    long base = Math.max(s.shuffleBytesRead(), s.shuffleWriteBytes());
    return (double) s.diskBytesSpilled() / base;
  }
}
