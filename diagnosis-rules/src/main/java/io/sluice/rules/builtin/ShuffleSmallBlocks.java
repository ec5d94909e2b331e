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
import java.util.Map;

/**
 * SHUFFLE_SMALL_BLOCKS: tiny remote shuffle blocks, i.e. many random reads on the shuffle service's
 * disks.
 */
public final class ShuffleSmallBlocks extends BuiltinRule {
  public static final String ID = "SHUFFLE_SMALL_BLOCKS";
  static final Threshold MIN_BLOCKS =
      Threshold.of(
          "minRemoteBlocks",
          Unit.COUNT,
          1000,
          1,
          1e12,
          "A stage is judged only if it fetched at least this many remote blocks.");
  static final Grades AVG_BLOCK =
      Grades.falling(
          "avgBlockBytes",
          Unit.BYTES,
          "a stage's average remote block size (remote bytes read / remote blocks fetched)",
          512 * Sizes.KIB,
          128 * Sizes.KIB,
          32 * Sizes.KIB,
          4 * Sizes.KIB,
          1,
          Sizes.TIB);
  static final Threshold TARGET =
      Threshold.of(
          "targetPartitionBytes",
          Unit.BYTES,
          64 * Sizes.MIB,
          Sizes.MIB,
          2 * Sizes.GIB,
          "Shuffle partition size the recommendations aim at (partitions = shuffle bytes / this).");

  public ShuffleSmallBlocks() {
    this(null);
  }

  private ShuffleSmallBlocks(RuleSettings s) {
    super(ID, declare(MIN_BLOCKS, AVG_BLOCK, TARGET), s, ShuffleSmallBlocks::new);
  }

  @Override
  public String description() {
    return "Tiny average remote shuffle block (many map x reduce partitions for the bytes moved): "
        + "random I/O on the external shuffle service's disks.";
  }

  @Override
  public String documentation() {
    return "Judges every stage that fetched at least `minRemoteBlocks` remote blocks by its average remote block "
        + "size (`avgRemoteBlockBytes`); the smallest average sets the severity. Each remote block is one random "
        + "read on a shuffle service disk, so thousands of blocks of a few KiB turn a sequential workload into "
        + "seek-bound I/O that also delays every other application on the node.\n\n"
        + "Recommends fewer shuffle partitions (`spark.sql.shuffle.partitions` = the run's largest stage shuffle "
        + "read / `targetPartitionBytes`, at least 1, only if below the value in force) and AQE coalescing "
        + "towards `targetPartitionBytes`: AQE and coalescing on, "
        + "`spark.sql.adaptive.coalescePartitions.parallelismFirst=false` (the advisory size is ignored "
        + "otherwise) and `spark.sql.adaptive.advisoryPartitionSizeInBytes` if below the target.";
  }

  @Override
  Diagnosis evaluate(AppRun run, RunConf conf) {
    WorstStage pick = WorstStage.lowestMeasure();
    long maxBytes = 0;
    for (StageProfile s : reduceStages(run)) {
      if (s.shuffleRemoteBlocksFetched() < get(MIN_BLOCKS)) {
        continue;
      }
      if (!pick.offer(
          s, settings.grade(AVG_BLOCK, s.avgRemoteBlockBytes()), s.avgRemoteBlockBytes())) {
        continue;
      }
    }
    if (pick.isEmpty()) {
      return none();
    }
    Severity worst = pick.severity();
    StageProfile worstStage = pick.stage();
    List<Integer> flagged = pick.flagged();
    for (StageProfile r : reduceStages(run)) {
      maxBytes = Math.max(maxBytes, r.shuffleBytesRead());
    }
    StageProfile s = worstStage;
    long cells = (long) s.mapPartitions() * s.reducePartitions();
    Map<String, Double> ev = evidence();
    ev.put("avgRemoteBlockBytes", s.avgRemoteBlockBytes());
    ev.put("remoteBlocksFetched", (double) s.shuffleRemoteBlocksFetched());
    ev.put("shuffleRemoteBytesRead", (double) s.shuffleRemoteBytesRead());
    ev.put("shuffleBytesRead", (double) s.shuffleBytesRead());
    ev.put("mapPartitions", (double) s.mapPartitions());
    ev.put("reducePartitions", (double) s.reducePartitions());
    ev.put("mapTimesReduce", (double) cells);
    ev.put("bytesPerMapReducePair", cells == 0 ? 0 : (double) s.shuffleBytesRead() / cells);
    ev.put("fetchWaitShare", s.fetchWaitShare());
    ev.put("flaggedStages", (double) flagged.size());
    String summary =
        String.format(
            java.util.Locale.ROOT,
            "%s fetched %d remote shuffle blocks of %s on average (%d map x %d reduce partitions for %s): "
                + "random reads on the shuffle service's disks",
            stage(s),
            s.shuffleRemoteBlocksFetched(),
            bytes(s.avgRemoteBlockBytes()),
            s.mapPartitions(),
            s.reducePartitions(),
            bytes(s.shuffleBytesRead()));
    long target = (long) get(TARGET);
    List<Recommendation> recs = new ArrayList<>();
    long partitions = Math.max(1, (long) Math.ceil((double) maxBytes / target));
    if (partitions < conf.shufflePartitions()) {
      recs.add(
          new Recommendation(
              RunConf.SHUFFLE_PARTITIONS,
              Long.toString(partitions),
              "the run's largest shuffle read is "
                  + bytes(maxBytes)
                  + "; "
                  + partitions
                  + " partition(s) of about "
                  + bytes(target)
                  + " instead of "
                  + conf.shufflePartitions()
                  + " make blocks "
                  + Math.max(1, conf.shufflePartitions() / partitions)
                  + "x larger"));
    }
    recs.addAll(
        coalescing(conf, target, "average remote block is " + bytes(s.avgRemoteBlockBytes())));
    return diagnosis(worst, flagged, summary, ev, recs);
  }
}
