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
 * The only Spark keys a rule may recommend, each with the values it may take and the figures it
 * should move. The {@link RuleEngine} drops, logs and counts every recommendation that fails {@link
 * #check} or that names a key acting on stage kinds the diagnosed stages are not ({@link
 * #outOfScope}); nothing else can widen this list.
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
   * The lever of the AQE coalescing keys: the advisory size only acts with parallelismFirst=false.
   */
  static final String COALESCING = "coalescing";

  /**
   * One allowed key. {@code runtime} is true for SQL confs that can change at runtime (the others
   * only take effect at submit). {@code figures} are what the key should move, over the stages of
   * their kinds: the tuning policy judges a change of the key on them first and on wall time only
   * as a guard. An empty list means the profile shows nothing the key acts on: the key is judged on
   * wall time alone. {@code lever} names the keys that act together as one change (the AQE
   * coalescing keys, the fetch-retry pair); a key alone is its own lever.
   */
  public record Key(
      String key,
      Kind kind,
      double min,
      double max,
      Set<String> choices,
      boolean runtime,
      String description,
      List<Figure> figures,
      String lever) {

    public Key {
      figures = figures == null ? List.of() : List.copyOf(figures);
      lever = lever == null || lever.isEmpty() ? key : lever;
    }

    /** The stage kinds the key acts on (from its figures; empty when it declares none). */
    public Set<StageKind> stageKinds() {
      Set<StageKind> out = new java.util.LinkedHashSet<>();
      figures.forEach(f -> out.add(f.kind()));
      return out;
    }

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
            return v.equals("true") || v.equals("false")
                ? Optional.empty()
                : Optional.of("not true|false");
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

  private static final Figure[] REDUCE = {
    Figure.BLOCKS_PER_REDUCE_TASK, Figure.AVG_BLOCK_BYTES, Figure.BLOCKED_MS
  };
  private static final Figure[] PARTITIONS = {
    Figure.BLOCKS_PER_REDUCE_TASK, Figure.AVG_BLOCK_BYTES, Figure.BLOCKED_MS, Figure.SPILL_BYTES
  };
  private static final Figure[] FETCH = {Figure.FETCH_FAILED_TASKS, Figure.STAGE_RETRIES};
  private static final Figure[] SKEW = {Figure.REDUCE_TASK_MAX_MS};

  private static final AllowList DEFAULT =
      builder()
          .add(
              "spark.sql.shuffle.partitions",
              Kind.INT,
              1,
              100_000,
              true,
              "Initial number of shuffle partitions of SQL queries (and the upper bound AQE coalesces from).")
          .acts("partitions", PARTITIONS)
          .add("spark.sql.adaptive.enabled", Kind.BOOLEAN, 0, 0, true, "Adaptive query execution.")
          .acts(COALESCING, REDUCE)
          .add(
              "spark.sql.adaptive.coalescePartitions.enabled",
              Kind.BOOLEAN,
              0,
              0,
              true,
              "AQE coalescing of small shuffle partitions.")
          .acts(COALESCING, REDUCE)
          .add(
              "spark.sql.adaptive.coalescePartitions.parallelismFirst",
              Kind.BOOLEAN,
              0,
              0,
              true,
              "When true (Spark's default) AQE ignores the advisory size and only keeps partitions above "
                  + "coalescePartitions.minPartitionSize (1 MiB) while preserving the default parallelism.")
          .acts(COALESCING, REDUCE)
          .add(
              "spark.sql.adaptive.advisoryPartitionSizeInBytes",
              Kind.BYTES,
              Sizes.MIB,
              2 * Sizes.GIB,
              true,
              "Target size of a coalesced shuffle partition; effective only with parallelismFirst=false.")
          .acts(COALESCING, REDUCE)
          .add(
              "spark.sql.adaptive.skewJoin.enabled",
              Kind.BOOLEAN,
              0,
              0,
              true,
              "AQE splitting of skewed join partitions.")
          .acts("skew-join", SKEW)
          .add(
              "spark.sql.adaptive.skewJoin.skewedPartitionThresholdInBytes",
              Kind.BYTES,
              16 * Sizes.MIB,
              4 * Sizes.GIB,
              true,
              "A partition is skewed only if larger than this (and than factor x median).")
          .acts("skew-join", SKEW)
          .add(
              "spark.sql.adaptive.skewJoin.skewedPartitionFactor",
              Kind.DOUBLE,
              2,
              20,
              true,
              "A partition is skewed only if larger than this factor x the median partition size.")
          .acts("skew-join", SKEW)
          .add(
              "spark.sql.files.maxPartitionBytes",
              Kind.BYTES,
              Sizes.MIB,
              64 * Sizes.GIB,
              true,
              "Maximum bytes packed into one input split of file sources.")
          .acts("input-splits", Figure.FILE_SCAN_TASKS)
          .add(
              "spark.io.compression.codec",
              Kind.CHOICE,
              Set.of("lz4", "zstd", "snappy", "lzf"),
              false,
              "Codec of shuffle (and broadcast, RDD) blocks.")
          .acts("codec", Figure.SHUFFLE_BYTES_WRITTEN)
          .add(
              "spark.shuffle.io.maxRetries",
              Kind.INT,
              3,
              10,
              false,
              "Retries of a failed shuffle fetch (IO exceptions) before a FetchFailed.")
          .acts("fetch-retry", FETCH)
          .add(
              "spark.shuffle.io.retryWait",
              Kind.SECONDS,
              5_000,
              60_000,
              false,
              "Wait between shuffle fetch retries.")
          .acts("fetch-retry", FETCH)
          .add(
              "spark.reducer.maxSizeInFlight",
              Kind.BYTES,
              48 * Sizes.MIB,
              256 * Sizes.MIB,
              false,
              "Bytes of shuffle blocks a reduce task fetches concurrently.")
          .acts("in-flight", Figure.BLOCKED_MS)
          .add(
              "spark.memory.fraction",
              Kind.DOUBLE,
              0.3,
              0.9,
              false,
              "Share of (heap - 300 MiB) used for execution and storage.")
          .acts("memory", Figure.SPILL_BYTES)
          .add(
              "spark.executor.memory",
              Kind.MEMORY,
              Sizes.GIB,
              64 * Sizes.GIB,
              false,
              "Executor heap size.")
          .acts("memory", Figure.SPILL_BYTES)
          .add(
              "spark.dynamicAllocation.shuffleTracking.enabled",
              Kind.BOOLEAN,
              0,
              0,
              false,
              "Keep executors that hold live shuffle output (dynamic allocation without an external shuffle service).")
          .acts("shuffle-tracking", FETCH)
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

  /**
   * Why a recommendation cannot act on the stages it was made for, or empty if it can: the key's
   * figures measure stage kinds of which none is among {@code stages} (a split-size key for stages
   * that scan no file). Keys that declare no figures, or figures over any stage, are always in
   * scope.
   */
  public Optional<String> outOfScope(Recommendation r, List<io.sluice.model.StageProfile> stages) {
    Key k = keys.get(r.key());
    if (k == null || k.stageKinds().isEmpty() || k.stageKinds().contains(StageKind.ANY)) {
      return Optional.empty();
    }
    for (io.sluice.model.StageProfile s : stages) {
      for (StageKind kind : k.stageKinds()) {
        if (kind.matches(s)) {
          return Optional.empty();
        }
      }
    }
    List<String> labels = k.stageKinds().stream().map(StageKind::label).toList();
    return Optional.of(
        r.key()
            + " acts on "
            + String.join(" and ", labels)
            + " only, and none of the diagnosed "
            + "stages is one");
  }

  /** Why a recommendation is not allowed, or empty if it is. */
  public Optional<String> check(Recommendation r) {
    Key k = keys.get(r.key());
    if (k == null) {
      return Optional.of("key " + r.key() + " is not on the allow-list");
    }
    return k.reject(r.value()).map(why -> r.key() + "=" + r.value() + " is " + why);
  }

  /**
   * A builder for allow-lists other than the built-in one (tests, tools); the engine uses {@link
   * #defaults()}.
   */
  public static Builder builder() {
    return new Builder();
  }

  /** Declares keys in order; {@link #acts} sets the figures and lever of the key added last. */
  public static final class Builder {
    private final Map<String, Key> keys = new LinkedHashMap<>();
    private String last;

    public Builder add(
        String key, Kind kind, double min, double max, boolean runtime, String description) {
      return put(new Key(key, kind, min, max, Set.of(), runtime, description, List.of(), key));
    }

    public Builder add(
        String key, Kind kind, Set<String> choices, boolean runtime, String description) {
      return put(
          new Key(
              key,
              kind,
              0,
              0,
              Collections.unmodifiableSet(new java.util.TreeSet<>(choices)),
              runtime,
              description,
              List.of(),
              key));
    }

    /** The figures the last added key acts on, and the lever it belongs to. */
    public Builder acts(String lever, Figure... figures) {
      Key k = keys.get(last);
      if (k == null) {
        throw new IllegalStateException("acts(" + lever + ") before any key");
      }
      return put(
          new Key(
              k.key(),
              k.kind(),
              k.min(),
              k.max(),
              k.choices(),
              k.runtime(),
              k.description(),
              List.of(figures),
              lever));
    }

    private Builder put(Key k) {
      keys.put(k.key(), k);
      last = k.key();
      return this;
    }

    public AllowList build() {
      return new AllowList(new LinkedHashMap<>(keys));
    }
  }
}
