package io.sluice.rules;

import io.sluice.model.AppRun;
import io.sluice.model.StageProfile;
import java.util.List;
import java.util.Locale;

/**
 * A figure of a run that a tunable key is expected to move, measured over the stages of the key's
 * kind. The allow-list declares, per key, the figures it acts on; the tuning policy judges a trial
 * first on them. Costs (blocked time, spill, failures) are better {@link Better#LOWER}; structural
 * figures (blocks per task, block size, input tasks) are {@link Better#EITHER}: a move in either
 * direction shows the key acted, and whether the job is better for it is for the costs and wall
 * time to say. {@code floor} is the smallest difference that counts, in the figure's unit. The
 * average block size is an exact ratio (bytes read over blocks fetched) and small-block jobs have
 * blocks of a few hundred bytes, so its floor is one byte: a floor in KiB would hide a partition
 * change that moves 100 B blocks to 400 B (blocks per reduce task, the map count, stays where it
 * was); the relative threshold of the judge still applies.
 */
public enum Figure {
  BLOCKS_PER_REDUCE_TASK(
      "blocks per reduce task", StageKind.REDUCE, Better.EITHER, 0.5, Unit.COUNT),
  AVG_BLOCK_BYTES("average block size", StageKind.REDUCE, Better.EITHER, 1, Unit.BYTES),
  BLOCKED_MS("shuffle read blocked time", StageKind.REDUCE, Better.LOWER, 100, Unit.MILLIS),
  REDUCE_TASK_MAX_MS("longest reduce task", StageKind.REDUCE, Better.LOWER, 200, Unit.MILLIS),
  FILE_SCAN_TASKS("input tasks of file scans", StageKind.FILE_SCAN, Better.EITHER, 1, Unit.COUNT),
  SHUFFLE_BYTES_WRITTEN(
      "shuffle bytes written", StageKind.MAP, Better.LOWER, 64 * 1024, Unit.BYTES),
  SPILL_BYTES("bytes spilled to disk", StageKind.ANY, Better.LOWER, 1024 * 1024, Unit.BYTES),
  FETCH_FAILED_TASKS("fetch-failed tasks", StageKind.ANY, Better.LOWER, 1, Unit.COUNT),
  STAGE_RETRIES("stage re-attempts", StageKind.ANY, Better.LOWER, 1, Unit.COUNT);

  /** Which way the figure should move when the key does what it is there for. */
  public enum Better {
    LOWER,
    HIGHER,
    EITHER
  }

  /** How values print. */
  public enum Unit {
    COUNT,
    BYTES,
    MILLIS
  }

  private final String label;
  private final StageKind kind;
  private final Better better;
  private final double floor;
  private final Unit unit;

  Figure(String label, StageKind kind, Better better, double floor, Unit unit) {
    this.label = label;
    this.kind = kind;
    this.better = better;
    this.floor = floor;
    this.unit = unit;
  }

  public String label() {
    return label;
  }

  public StageKind kind() {
    return kind;
  }

  public Better better() {
    return better;
  }

  /**
   * The figure's unit: {@link Unit#MILLIS} figures are timings, as noisy as wall time under load.
   */
  public Unit unit() {
    return unit;
  }

  /** Differences smaller than this (in the figure's unit) count as no change. */
  public double floor() {
    return floor;
  }

  /** The figure's camel-case name, for evidence maps ({@code blocksPerReduceTask}). */
  public String key() {
    StringBuilder b = new StringBuilder();
    for (String w : name().toLowerCase(Locale.ROOT).split("_")) {
      b.append(b.length() == 0 ? w : Character.toUpperCase(w.charAt(0)) + w.substring(1));
    }
    return b.toString();
  }

  /**
   * True when the run has at least one stage attempt of this figure's kind (else the figure is not
   * measured).
   */
  public boolean measured(AppRun run) {
    return run.stages().stream().anyMatch(kind::matches);
  }

  /** The figure's value for a run, over its stage attempts of the figure's kind (0 when none). */
  public double of(AppRun run) {
    List<StageProfile> stages = run.stages().stream().filter(kind::matches).toList();
    double blocks = 0;
    double tasks = 0;
    double sum = 0;
    double max = 0;
    for (StageProfile s : stages) {
      long b = s.shuffleRemoteBlocksFetched() + s.shuffleLocalBlocksFetched();
      switch (this) {
        case BLOCKS_PER_REDUCE_TASK -> {
          blocks += b;
          tasks += s.successfulTasks();
        }
        case AVG_BLOCK_BYTES -> {
          blocks += b;
          sum += s.shuffleBytesRead();
        }
        case BLOCKED_MS -> sum += s.shuffleFetchWaitMs();
        case REDUCE_TASK_MAX_MS -> max = Math.max(max, s.taskDurationMaxMs());
        case FILE_SCAN_TASKS -> sum += s.stageAttemptId() == 0 ? s.numTasks() : 0;
        case SHUFFLE_BYTES_WRITTEN -> sum += s.shuffleWriteBytes();
        case SPILL_BYTES -> sum += s.diskBytesSpilled();
        case FETCH_FAILED_TASKS -> sum += s.fetchFailedTasks();
        case STAGE_RETRIES -> sum += s.stageAttemptId() > 0 ? 1 : 0;
        default -> throw new IllegalStateException(name());
      }
    }
    return switch (this) {
      case BLOCKS_PER_REDUCE_TASK -> tasks == 0 ? 0 : blocks / tasks;
      case AVG_BLOCK_BYTES -> blocks == 0 ? 0 : sum / blocks;
      case REDUCE_TASK_MAX_MS -> max;
      default -> sum;
    };
  }

  /** A value as a person reads it: "4", "1.5 MiB", "2.5 s". */
  public String format(double v) {
    return switch (unit) {
      case BYTES -> Sizes.human(v);
      case MILLIS ->
          v >= 1000
              ? String.format(Locale.ROOT, "%.1f s", v / 1000)
              : String.format(Locale.ROOT, "%.0f ms", v);
      case COUNT -> count(v);
    };
  }

  /**
   * One decimal at most, none when it would be ".0": 199.97 blocks per task print as "200", not
   * "200.0".
   */
  private static String count(double v) {
    String s = String.format(Locale.ROOT, "%.1f", v);
    return s.endsWith(".0") ? s.substring(0, s.length() - 2) : s;
  }
}
