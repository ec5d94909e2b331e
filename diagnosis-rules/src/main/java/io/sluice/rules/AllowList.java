package io.sluice.rules;

import io.sluice.model.Recommendation;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The only Spark keys a rule may recommend, each with the values it may take (the policy's rule: "only allow-listed keys
 * with bounded values are ever recommended"). The {@link RuleEngine} drops, logs and counts every recommendation
 * that fails {@link #check}; nothing else can widen this list.
 */
public final class AllowList {
  /** How a key's value is read and bounded. */
  public enum Kind {
    /** whole number within [min, max] */
    INT,
    /** decimal number within [min, max] */
    DOUBLE,
    /** Spark size string; a bare number is bytes; bounds in bytes */
    BYTES,
    /** Spark memory string; a bare number is MiB; bounds in bytes */
    MEMORY,
    /** Spark duration; a bare number is seconds; bounds in milliseconds */
    SECONDS,
    /** true or false */
    BOOLEAN,
    /** one of a fixed set of words */
    CHOICE
  }

  /**
   * One allowed key. {@code runtime} is true for SQL confs that can change at runtime (the others only take effect
   * at submit, docs/architecture.md).
   */
  public record Key(String key, Kind kind, double min, double max, Set<String> choices, boolean runtime,
      String description) {

    /** The value's bounds as text for docs and messages. */
    public String bounds() {
      return switch (kind) {
        case BOOLEAN -> "true | false";
        case CHOICE -> String.join(" | ", choices);
        case BYTES, MEMORY -> Sizes.sparkBytes((long) min) + " .. " + Sizes.sparkBytes((long) max);
        case SECONDS -> (long) min / 1000 + "s .. " + (long) max / 1000 + "s";
        default -> Sizes.plain(min) + " .. " + Sizes.plain(max);
      };
    }

    Optional<String> reject(String raw) {
      String v = raw.trim();
      try {
        double d;
        switch (kind) {
          case BOOLEAN:
            return v.equals("true") || v.equals("false") ? Optional.empty() : Optional.of("not true|false");
          case CHOICE:
            return choices.contains(v) ? Optional.empty() : Optional.of("not one of " + choices);
          case INT:
            d = Long.parseLong(v);
            break;
          case DOUBLE:
            d = Double.parseDouble(v);
            break;
          case BYTES:
            d = Sizes.parseBytes(v, 1);
            break;
          case MEMORY:
            d = Sizes.parseBytes(v, Sizes.MIB);
            break;
          case SECONDS:
            d = Sizes.parseMillis(v, 1000);
            break;
          default:
            throw new IllegalStateException(kind.name());
        }
        if (Double.isNaN(d) || d < min || d > max) {
          return Optional.of("outside " + bounds());
        }
        return Optional.empty();
      } catch (RuntimeException e) {
        return Optional.of("not a valid " + kind.name().toLowerCase(Locale.ROOT) + " value");
      }
    }
  }

  private static final AllowList DEFAULT = new Builder()
      .add("spark.sql.shuffle.partitions", Kind.INT, 1, 100_000, true,
          "Initial number of shuffle partitions of SQL queries (and the upper bound AQE coalesces from).")
      .add("spark.sql.adaptive.enabled", Kind.BOOLEAN, 0, 0, true, "Adaptive query execution.")
      .add("spark.sql.adaptive.coalescePartitions.enabled", Kind.BOOLEAN, 0, 0, true,
          "AQE coalescing of small shuffle partitions.")
      .add("spark.sql.adaptive.coalescePartitions.parallelismFirst", Kind.BOOLEAN, 0, 0, true,
          "When true (Spark's default) AQE ignores the advisory size and only keeps partitions above "
              + "coalescePartitions.minPartitionSize (1 MiB) while preserving the default parallelism.")
      .add("spark.sql.adaptive.advisoryPartitionSizeInBytes", Kind.BYTES, Sizes.MIB, 2 * Sizes.GIB, true,
          "Target size of a coalesced shuffle partition; effective only with parallelismFirst=false.")
      .add("spark.sql.adaptive.skewJoin.enabled", Kind.BOOLEAN, 0, 0, true, "AQE splitting of skewed join partitions.")
      .add("spark.sql.adaptive.skewJoin.skewedPartitionThresholdInBytes", Kind.BYTES, 16 * Sizes.MIB, 4 * Sizes.GIB,
          true, "A partition is skewed only if larger than this (and than factor x median).")
      .add("spark.sql.adaptive.skewJoin.skewedPartitionFactor", Kind.DOUBLE, 2, 20, true,
          "A partition is skewed only if larger than this factor x the median partition size.")
      .add("spark.sql.files.maxPartitionBytes", Kind.BYTES, Sizes.MIB, 64 * Sizes.GIB, true,
          "Maximum bytes packed into one input split of file sources.")
      .add("spark.io.compression.codec", Kind.CHOICE, Set.of("lz4", "zstd", "snappy", "lzf"), false,
          "Codec of shuffle (and broadcast, RDD) blocks.")
      .add("spark.shuffle.io.maxRetries", Kind.INT, 3, 10, false,
          "Retries of a failed shuffle fetch (IO exceptions) before a FetchFailed.")
      .add("spark.shuffle.io.retryWait", Kind.SECONDS, 5_000, 60_000, false, "Wait between shuffle fetch retries.")
      .add("spark.reducer.maxSizeInFlight", Kind.BYTES, 48 * Sizes.MIB, 256 * Sizes.MIB, false,
          "Bytes of shuffle blocks a reduce task fetches concurrently.")
      .add("spark.memory.fraction", Kind.DOUBLE, 0.3, 0.9, false,
          "Share of (heap - 300 MiB) used for execution and storage.")
      .add("spark.executor.memory", Kind.MEMORY, Sizes.GIB, 64 * Sizes.GIB, false, "Executor heap size.")
      .add("spark.dynamicAllocation.shuffleTracking.enabled", Kind.BOOLEAN, 0, 0, false,
          "Keep executors that hold live shuffle output (dynamic allocation without an external shuffle service).")
      .build();

  private final Map<String, Key> keys;

  private AllowList(Map<String, Key> keys) {
    this.keys = Collections.unmodifiableMap(keys);
  }

  /** The built-in allow-list (the only one the engine uses). */
  public static AllowList defaults() {
    return DEFAULT;
  }

  public List<Key> keys() {
    return new ArrayList<>(keys.values());
  }

  public Optional<Key> key(String key) {
    return Optional.ofNullable(keys.get(key));
  }

  /** Why a recommendation is not allowed, or empty if it is. */
  public Optional<String> check(Recommendation r) {
    Key k = keys.get(r.key());
    if (k == null) {
      return Optional.of("key " + r.key() + " is not on the allow-list");
    }
    return k.reject(r.value()).map(why -> r.key() + "=" + r.value() + " is " + why);
  }

  private static final class Builder {
    private final Map<String, Key> keys = new LinkedHashMap<>();

    Builder add(String key, Kind kind, double min, double max, boolean runtime, String description) {
      keys.put(key, new Key(key, kind, min, max, Set.of(), runtime, description));
      return this;
    }

    Builder add(String key, Kind kind, Set<String> choices, boolean runtime, String description) {
      keys.put(key, new Key(key, kind, 0, 0, Collections.unmodifiableSet(new java.util.TreeSet<>(choices)), runtime, description));
      return this;
    }

    AllowList build() {
      return new AllowList(keys);
    }
  }
}
