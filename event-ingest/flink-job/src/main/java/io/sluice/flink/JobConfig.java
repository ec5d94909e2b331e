package io.sluice.flink;

import io.sluice.config.Catalogue;
import io.sluice.config.Setting;
import io.sluice.config.Unit;
import io.sluice.contracts.kafka.Topics;
import java.io.IOException;
import java.io.Reader;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * Every setting of {@link ShuffleProfileJob}, declared once below with its default, valid range and
 * meaning.
 *
 * <p>Sources, later ones winning: the defaults below; a properties file named by {@code --config
 * FILE}; Java system properties {@code sluice.flink.KEY}; command-line arguments {@code --KEY
 * VALUE} or {@code KEY=VALUE} (parsed by picocli from options built out of these declarations).
 * Unknown keys fail fast (listing the known ones) so a typo never silently runs with a default.
 */
public final class JobConfig implements Serializable {
  private static final long serialVersionUID = 1L;

  /** System-property prefix: {@code -Dsluice.flink.store.url=...}. */
  public static final String SYSTEM_PREFIX = "sluice.flink.";

  private static final long YEAR_MS = 365L * 86_400_000;

  private static final Map<String, Setting<?>> KEYS = new LinkedHashMap<>();

  private static <T> Setting<T> declare(Setting<T> s) {
    KEYS.put(s.key(), s);
    return s;
  }

  private static Setting<String> text(String name, String def, String meaning) {
    return declare(Setting.ofText(name, def, meaning));
  }

  private static Setting<Boolean> bool(String name, boolean def, String meaning) {
    return declare(Setting.ofBoolean(name, def, meaning));
  }

  private static Setting<String> choice(String name, String def, String[] choices, String meaning) {
    return declare(Setting.ofChoice(name, def, meaning, choices));
  }

  private static Setting<Long> number(
      String name, Unit unit, long def, long min, long max, String meaning) {
    return declare(Setting.ofLong(name, unit, def, min, max, meaning));
  }

  public static final Setting<String> BOOTSTRAP_SERVERS =
      text(
          "bootstrap.servers",
          "127.0.0.1:9092",
          "Kafka bootstrap servers, comma separated (sources, sink and the topic admin).");
  public static final Setting<String> KAFKA_CLIENT_PROPERTIES =
      text(
          "kafka.client-properties",
          "",
          "A Kafka client properties file whose security settings (security.protocol, sasl.*, ssl.*) every source, the "
              + "sink and the topic admin use; empty: the file named by SLUICE_KAFKA_CLIENT_PROPERTIES or "
              + "-Dsluice.kafka.client-properties, if any. SLUICE_KAFKA_SASL_JAAS_CONFIG supplies sasl.jaas.config.");
  public static final Setting<String> TOPIC_EVENTS =
      text(
          "topic.events",
          Topics.SPARK_EVENTS,
          "Topic of Spark event envelopes {cluster, appId, appAttemptId, seq, emittedAt, event}; key = appId.");
  public static final Setting<String> TOPIC_YARN =
      text(
          "topic.yarn",
          Topics.YARN_APPS,
          "Topic of YARN application records (YarnAppRecord JSON); key = appId.");
  public static final Setting<String> TOPIC_PROFILES =
      text(
          "topic.profiles",
          Topics.PROFILES,
          "Topic the profiled AppRun JSON is written to; key = appId.");
  public static final Setting<Boolean> TOPICS_CREATE =
      bool(
          "topics.create",
          true,
          "Create the three topics with the Kafka Admin client before the job starts (existing ones are kept).");
  public static final Setting<Long> TOPICS_PARTITIONS =
      number(
          "topics.partitions",
          Unit.COUNT,
          4L,
          1,
          100_000,
          "Partitions of topics this job creates.");
  public static final Setting<Long> TOPICS_REPLICATION =
      number(
          "topics.replication",
          Unit.COUNT,
          1L,
          1,
          Short.MAX_VALUE,
          "Replication factor of topics this job creates.");
  public static final Setting<String> GROUP_ID =
      text(
          "group.id",
          "sluice-shuffle-profiles",
          "Kafka consumer group of both sources. Offsets are committed on checkpoints (for monitoring only: a "
              + "restore always uses the offsets in the checkpoint).");
  public static final Setting<String> STARTING_OFFSETS =
      choice(
          "starting.offsets",
          "committed-or-earliest",
          new String[] {"committed-or-earliest", "earliest", "latest"},
          "Where a fresh start (no checkpoint) reads from: committed-or-earliest, earliest or latest. Keep the "
              + "default when restoring: a partition that had no record yet at checkpoint time is resolved with "
              + "this setting too, and `latest` would skip what arrived there while the job was down.");
  public static final Setting<String> KAFKA_SINK =
      choice(
          "kafka.sink",
          "at-least-once",
          new String[] {"at-least-once", "exactly-once", "none"},
          "Delivery to the profiles topic: at-least-once, exactly-once (Kafka transactions, visible to "
              + "read_committed consumers on checkpoint) or none (do not write the topic).");
  public static final Setting<String> STORE_URL =
      text(
          "store.url",
          "jdbc:h2:file:./.sluice/history/sluice-history",
          "History store JDBC URL: jdbc:h2:file:... (embedded), jdbc:h2:tcp://... (store process) or "
              + "jdbc:clickhouse:... / jdbc:ch:... (production). Empty = no store sink.");
  public static final Setting<Long> STORE_BATCH_SIZE =
      number(
          "store.batch.size",
          Unit.COUNT,
          100L,
          1,
          1_000_000,
          "Runs buffered per store writer before an upsert; the buffer is also flushed on every checkpoint.");
  public static final Setting<Long> STORE_FLUSH_INTERVAL_MS =
      number(
          "store.flush-interval.ms",
          Unit.MILLIS,
          1000L,
          0,
          86_400_000,
          "Longest time a run waits in a store writer's buffer before it is upserted (an ended application is "
              + "visible in the store within about this long); 0 = only when the batch fills or at a checkpoint.");
  public static final Setting<String> CLUSTER =
      text("cluster", "default", "Cluster name used for envelopes that carry none.");
  public static final Setting<String> CHECKPOINT_DIR =
      text(
          "checkpoint.dir",
          "",
          "Checkpoint storage (a file:// or other Flink filesystem URI). Checkpoints are retained on cancel. "
              + "Required on a cluster (local=false), where it must be storage every TaskManager reaches and that "
              + "survives a restart; local runs default to .sluice/flink-checkpoints under the working directory, "
              + "next to the default embedded store (never /tmp, which is cleared on reboot).");
  public static final Setting<Long> CHECKPOINT_INTERVAL_MS =
      number(
          "checkpoint.interval.ms",
          Unit.MILLIS,
          10000L,
          10,
          86_400_000,
          "Checkpoint interval: how much input a restart replays. The store writers also flush on every "
              + "checkpoint.");
  public static final Setting<String> CHECKPOINT_MODE =
      choice(
          "checkpoint.mode",
          "exactly-once",
          new String[] {"exactly-once", "at-least-once"},
          "Checkpoint barrier mode for operator state: exactly-once (aligned) or at-least-once.");
  public static final Setting<Long> PARALLELISM =
      number(
          "parallelism",
          Unit.COUNT,
          2L,
          0,
          32_768,
          "Job parallelism (sources, the profile operator and the sinks); 0 = the environment's default.");
  public static final Setting<Long> MAX_PARALLELISM =
      number(
          "max.parallelism",
          Unit.COUNT,
          128L,
          1,
          32_768,
          "Key-group count: the upper bound for rescaling from a checkpoint. Fixed for the life of the state.");
  public static final Setting<Long> ENDED_RETENTION_MS =
      number(
          "state.ended-retention.ms",
          Unit.MILLIS,
          3600000L,
          0,
          YEAR_MS,
          "How long an ended application's state stays after its last change, so late YARN records still "
              + "update its run. Afterwards the state is cleared.");
  public static final Setting<Long> IDLE_TTL_MS =
      number(
          "state.idle-ttl.ms",
          Unit.MILLIS,
          86400000L,
          1,
          YEAR_MS,
          "An application that never ends and receives nothing for this long is dropped from state.");
  public static final Setting<Boolean> LOCAL =
      bool(
          "local",
          true,
          "true: run in this JVM on a MiniCluster (the `java -cp` launch); false: submit to the surrounding "
              + "environment (`flink run` on a cluster).");
  public static final Setting<Boolean> LOCAL_RESUME =
      bool(
          "local.resume",
          true,
          "Local runs only: restore from the newest completed checkpoint found under checkpoint.dir.");
  public static final Setting<String> RESUME_FROM =
      text(
          "resume.from",
          "",
          "A checkpoint or savepoint path to restore from (overrides local.resume).");
  public static final Setting<String> JOB_NAME =
      text("job.name", "sluice-shuffle-profiles", "Flink job name.");
  public static final Setting<String> TOPIC_DEAD_LETTER =
      text(
          "topic.dead-letter",
          Topics.PROFILES_DEAD_LETTER,
          "Topic of runs a sink could not take (too large for the profiles topic, refused by the store): one JSON "
              + "DeadLetter each (identity, version, sink, reason, size; not the run); key = appId. Counted in the "
              + "sluice.deadLetters metric.");
  public static final Setting<Long> MAX_STAGES_PER_ATTEMPT =
      number(
          "state.max-stages-per-attempt",
          Unit.COUNT,
          20000L,
          0,
          Integer.MAX_VALUE,
          "Completed stage attempts one application attempt may hold in state (about 0.5 KB each). When an attempt "
              + "that has not ended reaches it (a streaming application), its completed stage attempts are emitted as "
              + "a part run (appAttemptId '<attempt>~part-<n>', status RUNNING) and dropped from state; the final run "
              + "holds the stages since the last part. 0 = no limit.");
  public static final Setting<Long> PROFILES_MAX_RECORD_BYTES =
      number(
          "profiles.max-record-bytes",
          Unit.BYTES,
          16777216L,
          1_024,
          1L << 30,
          "Largest AppRun JSON written to the profiles topic (16 MiB; a 5,000-stage run is about 5 MB). The producer "
              + "compresses with zstd and its max.request.size is set to this; topics this job creates (or finds "
              + "smaller, when topics.create) get max.message.bytes = this. Larger runs go to the dead-letter topic.");

  private final Map<String, String> values;

  private JobConfig(Map<String, String> values) {
    this.values = Collections.unmodifiableMap(new TreeMap<>(values));
  }

  public static JobConfig defaults() {
    return of(Map.of());
  }

  /**
   * Defaults overridden by the given entries; unknown keys and bad values fail here, naming the
   * key.
   */
  public static JobConfig of(Map<String, String> overrides) {
    Map<String, String> v = new LinkedHashMap<>();
    KEYS.values().forEach(k -> v.put(k.key(), k.defaultText()));
    overrides.forEach((k, val) -> v.put(check(k), val == null ? "" : val.trim()));
    KEYS.values().forEach(k -> k.parse(v.get(k.key())));
    return new JobConfig(v);
  }

  /** Defaults, then {@code --config FILE}, then system properties, then the arguments. */
  public static JobConfig fromArgs(String[] args) {
    ParseResult parsed;
    try {
      parsed = new CommandLine(commandSpec()).parseArgs(args);
    } catch (UnmatchedArgumentException e) {
      throw new IllegalArgumentException(
          "unknown setting '"
              + e.getUnmatched().get(0).replaceFirst("^--", "")
              + "'; known settings: "
              + KEYS.keySet(),
          e);
    } catch (ParameterException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
    Map<String, String> fromArgs = new LinkedHashMap<>();
    for (OptionSpec o : parsed.matchedOptions()) {
      if (KEYS.containsKey(o.longestName().substring(2))) {
        fromArgs.put(o.longestName().substring(2), o.getValue());
      }
    }
    for (String a : parsed.matchedPositionalValue(0, List.<String>of())) {
      int eq = a.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException(
            "cannot read argument '"
                + a
                + "': use --key value or key=value; "
                + "keys: "
                + KEYS.keySet());
      }
      fromArgs.put(a.substring(0, eq), a.substring(eq + 1));
    }
    String configFile = parsed.matchedOptionValue("--config", null);
    Map<String, String> merged = new LinkedHashMap<>();
    if (configFile != null) {
      Properties p = new Properties();
      try (Reader r = Files.newBufferedReader(Path.of(configFile), StandardCharsets.UTF_8)) {
        p.load(r);
      } catch (IOException e) {
        throw new IllegalArgumentException(
            "cannot read config file " + configFile + ": " + e.getMessage(), e);
      }
      p.stringPropertyNames().forEach(n -> merged.put(n, p.getProperty(n)));
    }
    System.getProperties().stringPropertyNames().stream()
        .filter(n -> n.startsWith(SYSTEM_PREFIX))
        .forEach(n -> merged.put(n.substring(SYSTEM_PREFIX.length()), System.getProperty(n)));
    merged.putAll(fromArgs);
    return of(merged);
  }

  /**
   * The job's command line: {@code --config FILE}, one {@code --KEY VALUE} option per setting (also
   * {@code --KEY=VALUE}) and {@code KEY=VALUE} words, built from the declarations so its help lists
   * every key.
   */
  static CommandSpec commandSpec() {
    CommandSpec spec =
        CommandSpec.create().name("ShuffleProfileJob").mixinStandardHelpOptions(true);
    spec.usageMessage()
        .description(
            "Spark events + YARN records -> AppRuns. Later sources win: defaults, --config "
                + "FILE, -D"
                + SYSTEM_PREFIX
                + "KEY=VALUE system properties, the arguments.");
    spec.addOption(
        OptionSpec.builder("--config")
            .paramLabel("FILE")
            .type(String.class)
            .description("A properties file of settings.")
            .build());
    for (Setting<?> k : KEYS.values()) {
      spec.addOption(
          OptionSpec.builder("--" + k.key())
              .paramLabel(k.unit().name())
              .type(String.class)
              .description(
                  k.description()
                      + " Default: "
                      + (k.defaultText().isEmpty() ? "empty" : k.defaultText())
                      + ".")
              .build());
    }
    spec.addPositional(
        PositionalParamSpec.builder()
            .arity("0..*")
            .paramLabel("KEY=VALUE")
            .type(List.class)
            .auxiliaryTypes(String.class)
            .description("A setting as one word.")
            .build());
    return spec;
  }

  private static String check(String key) {
    if (!KEYS.containsKey(key)) {
      throw new IllegalArgumentException(
          "unknown setting '" + key + "'; known settings: " + KEYS.keySet());
    }
    return key;
  }

  /** A copy with some settings changed (validated like configured values). */
  public JobConfig with(String key, String value) {
    Map<String, String> v = new LinkedHashMap<>(values);
    v.put(check(key), value);
    return of(v);
  }

  public JobConfig with(Setting<?> key, String value) {
    return with(key.key(), value);
  }

  /** The setting's value, parsed (it was validated when this configuration was built). */
  public <T> T get(Setting<T> key) {
    return key.parse(values.get(key.key()));
  }

  public long getLong(Setting<Long> key) {
    return get(key);
  }

  public int getInt(Setting<Long> key) {
    return Math.toIntExact(get(key));
  }

  public boolean getBoolean(Setting<Boolean> key) {
    return get(key);
  }

  public Duration getDuration(Setting<Long> key) {
    return Duration.ofMillis(get(key));
  }

  public Map<String, String> asMap() {
    return values;
  }

  /** The settings in declaration order. */
  public static Map<String, Setting<?>> keys() {
    return Collections.unmodifiableMap(KEYS);
  }

  /** The job's settings as the configuration reference lists them. */
  public static Catalogue catalogue() {
    return new Catalogue(
        "Flink job",
        "Arguments of `ShuffleProfileJob` (`--KEY VALUE` or `KEY=VALUE`), a properties "
            + "file named by `--config FILE`, or JVM system properties `"
            + SYSTEM_PREFIX
            + "KEY`; later sources win "
            + "(defaults, file, system properties, arguments). Unknown keys and bad values fail at start-up.",
        List.copyOf(KEYS.values()));
  }

  /** Human-readable help: the usage with every key, its default and meaning. */
  public static String help() {
    return new CommandLine(commandSpec()).getUsageMessage();
  }

  /** The settings for logs, with passwords in URLs masked. */
  @Override
  public String toString() {
    return values
        .toString()
        .replaceAll("(?i)(password=)[^&;,}]*", "$1***")
        .replaceAll("(//[^/:@,}]+:)[^/@,}]*@", "$1***@");
  }
}
