package io.sluice.rules;

import io.sluice.model.AppRun;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A run's Spark properties read with Spark's own defaults when a key is unset. Every default the
 * rules rely on is listed once in {@link #DEFAULTS} (and in the generated docs/rules.md);
 * version-dependent ones take the run's {@code sparkVersion} (an unknown version counts as the
 * newest).
 */
public final class RunConf {
  /** A Spark default the rules assume when a run does not set the key. */
  public record SparkDefault(String key, String value, String note) {}

  public static final String AQE = "spark.sql.adaptive.enabled";
  public static final String COALESCE = "spark.sql.adaptive.coalescePartitions.enabled";
  public static final String PARALLELISM_FIRST =
      "spark.sql.adaptive.coalescePartitions.parallelismFirst";
  public static final String ADVISORY = "spark.sql.adaptive.advisoryPartitionSizeInBytes";
  public static final String ADVISORY_LEGACY =
      "spark.sql.adaptive.shuffle.targetPostShuffleInputSize";
  public static final String SHUFFLE_PARTITIONS = "spark.sql.shuffle.partitions";
  public static final String SKEW_JOIN = "spark.sql.adaptive.skewJoin.enabled";
  public static final String SKEW_FACTOR = "spark.sql.adaptive.skewJoin.skewedPartitionFactor";
  public static final String SKEW_THRESHOLD =
      "spark.sql.adaptive.skewJoin.skewedPartitionThresholdInBytes";
  public static final String MAX_PARTITION_BYTES = "spark.sql.files.maxPartitionBytes";
  public static final String CODEC = "spark.io.compression.codec";
  public static final String SHUFFLE_COMPRESS = "spark.shuffle.compress";
  public static final String IO_MAX_RETRIES = "spark.shuffle.io.maxRetries";
  public static final String IO_RETRY_WAIT = "spark.shuffle.io.retryWait";
  public static final String MAX_SIZE_IN_FLIGHT = "spark.reducer.maxSizeInFlight";
  public static final String MEMORY_FRACTION = "spark.memory.fraction";
  public static final String EXECUTOR_MEMORY = "spark.executor.memory";
  public static final String DYN_ALLOC = "spark.dynamicAllocation.enabled";
  public static final String SHUFFLE_SERVICE = "spark.shuffle.service.enabled";
  public static final String SHUFFLE_TRACKING = "spark.dynamicAllocation.shuffleTracking.enabled";
  public static final String SHUFFLE_TRACKING_TIMEOUT =
      "spark.dynamicAllocation.shuffleTracking.timeout";
  public static final String DECOMMISSION = "spark.decommission.enabled";
  public static final String STORAGE_DECOMMISSION = "spark.storage.decommission.enabled";
  public static final String DECOMMISSION_SHUFFLE =
      "spark.storage.decommission.shuffleBlocks.enabled";
  public static final String SHUFFLE_MANAGER = "spark.shuffle.manager";
  public static final String SHUFFLE_IO_PLUGIN = "spark.shuffle.sort.io.plugin.class";
  public static final String LOCAL_DISK_IO =
      "org.apache.spark.shuffle.sort.io.LocalDiskShuffleDataIO";

  public static final List<SparkDefault> DEFAULTS =
      List.of(
          new SparkDefault(AQE, "true (Spark >= 3.2.0; false before)", "adaptive query execution"),
          new SparkDefault(COALESCE, "true", "AQE coalescing of small shuffle partitions"),
          new SparkDefault(
              PARALLELISM_FIRST,
              "true",
              "with true, AQE ignores the advisory size and coalesces only down to minPartitionSize (1 MiB) "
                  + "while keeping the default parallelism"),
          new SparkDefault(
              ADVISORY,
              "64m, falling back to " + ADVISORY_LEGACY,
              "drives coalescing only with parallelismFirst=false"),
          new SparkDefault(SHUFFLE_PARTITIONS, "200", ""),
          new SparkDefault(SKEW_JOIN, "true", ""),
          new SparkDefault(SKEW_FACTOR, "5", ""),
          new SparkDefault(SKEW_THRESHOLD, "256m", ""),
          new SparkDefault(MAX_PARTITION_BYTES, "128m", ""),
          new SparkDefault(CODEC, "lz4", "codec of shuffle blocks"),
          new SparkDefault(SHUFFLE_COMPRESS, "true", ""),
          new SparkDefault(IO_MAX_RETRIES, "3", ""),
          new SparkDefault(IO_RETRY_WAIT, "5s", ""),
          new SparkDefault(MAX_SIZE_IN_FLIGHT, "48m", ""),
          new SparkDefault(MEMORY_FRACTION, "0.6", ""),
          new SparkDefault(EXECUTOR_MEMORY, "1g", ""),
          new SparkDefault(DYN_ALLOC, "false", ""),
          new SparkDefault(SHUFFLE_SERVICE, "false", ""),
          new SparkDefault(SHUFFLE_TRACKING, "true (Spark >= 3.4.0; false before)", ""),
          new SparkDefault(
              SHUFFLE_TRACKING_TIMEOUT,
              "infinity",
              "executors holding shuffle data are never released"),
          new SparkDefault(DECOMMISSION + ", " + STORAGE_DECOMMISSION, "false, false", ""),
          new SparkDefault(
              DECOMMISSION_SHUFFLE,
              "true",
              "migrates shuffle blocks only when both above are true"),
          new SparkDefault(
              SHUFFLE_MANAGER + ", " + SHUFFLE_IO_PLUGIN,
              "sort, " + LOCAL_DISK_IO,
              "any other value means a remote shuffle service or storage holds the shuffle data"));

  private final Map<String, String> conf;
  private final int[] version;

  public RunConf(AppRun run) {
    this(run.conf(), run.sparkVersion());
  }

  public RunConf(Map<String, String> conf, String sparkVersion) {
    this.conf = conf == null ? Map.of() : conf;
    this.version = parseVersion(sparkVersion);
  }

  private static int[] parseVersion(String v) {
    if (v == null) {
      return new int[] {99, 0};
    }
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d+)\\.(\\d+)").matcher(v);
    return m.find()
        ? new int[] {Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2))}
        : new int[] {99, 0};
  }

  /** Whether the run's Spark version is at least major.minor. */
  public boolean atLeast(int major, int minor) {
    return version[0] > major || (version[0] == major && version[1] >= minor);
  }

  /** The raw value if set (trimmed), else null. */
  public String raw(String key) {
    String v = conf.get(key);
    return v == null ? null : v.trim();
  }

  public boolean isSet(String key) {
    return raw(key) != null;
  }

  public boolean bool(String key, boolean dflt) {
    String v = raw(key);
    return v == null ? dflt : v.equalsIgnoreCase("true");
  }

  public long bytes(String key, long dflt, long defaultUnit) {
    String v = raw(key);
    if (v == null) {
      return dflt;
    }
    try {
      return Sizes.parseBytes(v, defaultUnit);
    } catch (RuntimeException e) {
      return dflt;
    }
  }

  public long integer(String key, long dflt) {
    String v = raw(key);
    try {
      return v == null ? dflt : Long.parseLong(v);
    } catch (NumberFormatException e) {
      return dflt;
    }
  }

  public double decimal(String key, double dflt) {
    String v = raw(key);
    try {
      return v == null ? dflt : Double.parseDouble(v);
    } catch (NumberFormatException e) {
      return dflt;
    }
  }

  public boolean aqeEnabled() {
    return bool(AQE, atLeast(3, 2));
  }

  public boolean coalesceEnabled() {
    return bool(COALESCE, true);
  }

  public boolean parallelismFirst() {
    return bool(PARALLELISM_FIRST, true);
  }

  /** Whether the run set an advisory size itself (the key or its legacy fallback). */
  public boolean advisoryExplicit() {
    return isSet(ADVISORY) || isSet(ADVISORY_LEGACY);
  }

  /** The advisory size in force: the key, else its legacy fallback, else 64 MiB. */
  public long advisoryBytes() {
    if (isSet(ADVISORY)) {
      return bytes(ADVISORY, 64 * Sizes.MIB, 1);
    }
    return bytes(ADVISORY_LEGACY, 64 * Sizes.MIB, 1);
  }

  public long shufflePartitions() {
    return integer(SHUFFLE_PARTITIONS, 200);
  }

  public boolean skewJoinEnabled() {
    return bool(SKEW_JOIN, true);
  }

  public long skewThresholdBytes() {
    return bytes(SKEW_THRESHOLD, 256 * Sizes.MIB, 1);
  }

  public long maxPartitionBytes() {
    return bytes(MAX_PARTITION_BYTES, 128 * Sizes.MIB, 1);
  }

  public String codec() {
    String v = raw(CODEC);
    return v == null ? "lz4" : v.toLowerCase(Locale.ROOT);
  }

  public boolean shuffleCompress() {
    return bool(SHUFFLE_COMPRESS, true);
  }

  public long ioMaxRetries() {
    return integer(IO_MAX_RETRIES, 3);
  }

  public long ioRetryWaitMs() {
    String v = raw(IO_RETRY_WAIT);
    try {
      return v == null ? 5000 : Sizes.parseMillis(v, 1000);
    } catch (RuntimeException e) {
      return 5000;
    }
  }

  public long maxSizeInFlightBytes() {
    return bytes(MAX_SIZE_IN_FLIGHT, 48 * Sizes.MIB, Sizes.MIB);
  }

  public double memoryFraction() {
    return decimal(MEMORY_FRACTION, 0.6);
  }

  public long executorMemoryBytes() {
    return bytes(EXECUTOR_MEMORY, Sizes.GIB, Sizes.MIB);
  }

  public boolean dynamicAllocation() {
    return bool(DYN_ALLOC, false);
  }

  public boolean shuffleService() {
    return bool(SHUFFLE_SERVICE, false);
  }

  public boolean shuffleTracking() {
    return bool(SHUFFLE_TRACKING, atLeast(3, 4));
  }

  /** The shuffle-tracking timeout in ms, or -1 for Spark's default (infinity). */
  public long shuffleTrackingTimeoutMs() {
    String v = raw(SHUFFLE_TRACKING_TIMEOUT);
    if (v == null || v.equalsIgnoreCase("infinity")) {
      return -1;
    }
    try {
      return Sizes.parseMillis(v, 1);
    } catch (RuntimeException e) {
      return -1;
    }
  }

  /** Shuffle blocks migrate on executor decommission (all three keys on). */
  public boolean decommissionShuffleMigration() {
    return bool(DECOMMISSION, false)
        && bool(STORAGE_DECOMMISSION, false)
        && bool(DECOMMISSION_SHUFFLE, true);
  }

  /**
   * Shuffle data lives outside the executors (a non-default shuffle manager or shuffle IO plugin).
   */
  public boolean remoteShuffle() {
    String mgr = raw(SHUFFLE_MANAGER);
    boolean customManager =
        mgr != null
            && !mgr.equalsIgnoreCase("sort")
            && !mgr.equalsIgnoreCase("tungsten-sort")
            && !mgr.equals("org.apache.spark.shuffle.sort.SortShuffleManager");
    String io = raw(SHUFFLE_IO_PLUGIN);
    return customManager || (io != null && !io.equals(LOCAL_DISK_IO));
  }
}
