package io.sluice.flink;

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
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * Every setting of {@link ShuffleProfileJob}, with its default and meaning, in one place.
 *
 * <p>Sources, later ones winning: the defaults below; a properties file named by {@code --config FILE};
 * Java system properties {@code sluice.flink.KEY}; command-line arguments {@code --KEY VALUE} or
 * {@code KEY=VALUE}. Unknown keys fail fast (listing the known ones) so a typo never silently runs with a
 * default.
 */
public final class JobConfig implements Serializable {
  private static final long serialVersionUID = 1L;

  /** System-property prefix: {@code -Dsluice.flink.store.url=...}. */
  public static final String SYSTEM_PREFIX = "sluice.flink.";

  /** A documented key: its name, default and meaning. */
  public record Key(String name, String defaultValue, String meaning) implements Serializable {}

  private static final Map<String, Key> KEYS = new LinkedHashMap<>();

  private static Key key(String name, String defaultValue, String meaning) {
    Key k = new Key(name, defaultValue, meaning);
    KEYS.put(name, k);
    return k;
  }

  public static final Key BOOTSTRAP_SERVERS = key("bootstrap.servers", "127.0.0.1:9092",
      "Kafka bootstrap servers, comma separated (sources, sink and the topic admin).");
  public static final Key KAFKA_CLIENT_PROPERTIES = key("kafka.client-properties", "",
      "A Kafka client properties file whose security settings (security.protocol, sasl.*, ssl.*) every source, the "
          + "sink and the topic admin use; empty: the file named by SLUICE_KAFKA_CLIENT_PROPERTIES or "
          + "-Dsluice.kafka.client-properties, if any. SLUICE_KAFKA_SASL_JAAS_CONFIG supplies sasl.jaas.config.");
  public static final Key TOPIC_EVENTS = key("topic.events", Topics.SPARK_EVENTS,
      "Topic of Spark event envelopes {cluster, appId, appAttemptId, seq, emittedAt, event}; key = appId.");
  public static final Key TOPIC_YARN = key("topic.yarn", Topics.YARN_APPS,
      "Topic of YARN application records (YarnAppRecord JSON); key = appId.");
  public static final Key TOPIC_PROFILES = key("topic.profiles", Topics.PROFILES,
      "Topic the profiled AppRun JSON is written to; key = appId.");
  public static final Key TOPICS_CREATE = key("topics.create", "true",
      "Create the three topics with the Kafka Admin client before the job starts (existing ones are kept).");
  public static final Key TOPICS_PARTITIONS = key("topics.partitions", "4",
      "Partitions of topics this job creates.");
  public static final Key TOPICS_REPLICATION = key("topics.replication", "1",
      "Replication factor of topics this job creates.");
  public static final Key GROUP_ID = key("group.id", "sluice-shuffle-profiles",
      "Kafka consumer group of both sources. Offsets are committed on checkpoints (for monitoring only: a "
          + "restore always uses the offsets in the checkpoint).");
  public static final Key STARTING_OFFSETS = key("starting.offsets", "committed-or-earliest",
      "Where a fresh start (no checkpoint) reads from: committed-or-earliest, earliest or latest. Keep the "
          + "default when restoring: a partition that had no record yet at checkpoint time is resolved with "
          + "this setting too, and `latest` would skip what arrived there while the job was down.");
  public static final Key KAFKA_SINK = key("kafka.sink", "at-least-once",
      "Delivery to the profiles topic: at-least-once, exactly-once (Kafka transactions, visible to "
          + "read_committed consumers on checkpoint) or none (do not write the topic).");
  public static final Key STORE_URL = key("store.url", "jdbc:h2:file:./.sluice/history/sluice-history",
      "History store JDBC URL: jdbc:h2:file:... (embedded), jdbc:h2:tcp://... (store process) or "
          + "jdbc:clickhouse:... / jdbc:ch:... (production). Empty = no store sink.");
  public static final Key STORE_BATCH_SIZE = key("store.batch.size", "100",
      "Runs buffered per store writer before an upsert; the buffer is also flushed on every checkpoint.");
  public static final Key STORE_FLUSH_INTERVAL_MS = key("store.flush-interval.ms", "1000",
      "Longest time a run waits in a store writer's buffer before it is upserted (an ended application is "
          + "visible in the store within about this long); 0 = only when the batch fills or at a checkpoint.");
  public static final Key CLUSTER = key("cluster", "default",
      "Cluster name used for envelopes that carry none.");
  public static final Key CHECKPOINT_DIR = key("checkpoint.dir", "",
      "Checkpoint storage (a file:// or other Flink filesystem URI). Checkpoints are retained on cancel. "
          + "Required on a cluster (local=false), where it must be storage every TaskManager reaches and that "
          + "survives a restart; local runs default to .sluice/flink-checkpoints under the working directory, "
          + "next to the default embedded store (never /tmp, which is cleared on reboot).");
  public static final Key CHECKPOINT_INTERVAL_MS = key("checkpoint.interval.ms", "10000",
      "Checkpoint interval: how much input a restart replays. The store writers also flush on every "
          + "checkpoint.");
  public static final Key CHECKPOINT_MODE = key("checkpoint.mode", "exactly-once",
      "Checkpoint barrier mode for operator state: exactly-once (aligned) or at-least-once.");
  public static final Key PARALLELISM = key("parallelism", "2",
      "Job parallelism (sources, the profile operator and the sinks); 0 = the environment's default.");
  public static final Key MAX_PARALLELISM = key("max.parallelism", "128",
      "Key-group count: the upper bound for rescaling from a checkpoint. Fixed for the life of the state.");
  public static final Key ENDED_RETENTION_MS = key("state.ended-retention.ms", "3600000",
      "How long an ended application's state stays after its last change, so late YARN records still "
          + "update its run. Afterwards the state is cleared.");
  public static final Key IDLE_TTL_MS = key("state.idle-ttl.ms", "86400000",
      "An application that never ends and receives nothing for this long is dropped from state.");
  public static final Key LOCAL = key("local", "true",
      "true: run in this JVM on a MiniCluster (the `java -cp` launch); false: submit to the surrounding "
          + "environment (`flink run` on a cluster).");
  public static final Key LOCAL_RESUME = key("local.resume", "true",
      "Local runs only: restore from the newest completed checkpoint found under checkpoint.dir.");
  public static final Key RESUME_FROM = key("resume.from", "",
      "A checkpoint or savepoint path to restore from (overrides local.resume).");
  public static final Key JOB_NAME = key("job.name", "sluice-shuffle-profiles", "Flink job name.");
  public static final Key TOPIC_DEAD_LETTER = key("topic.dead-letter", Topics.PROFILES_DEAD_LETTER,
      "Topic of runs a sink could not take (too large for the profiles topic, refused by the store): one JSON "
          + "DeadLetter each (identity, version, sink, reason, size; not the run); key = appId. Counted in the "
          + "sluice.deadLetters metric.");
  public static final Key MAX_STAGES_PER_ATTEMPT = key("state.max-stages-per-attempt", "20000",
      "Completed stage attempts one application attempt may hold in state (about 0.5 KB each). When an attempt "
          + "that has not ended reaches it (a streaming application), its completed stage attempts are emitted as "
          + "a part run (appAttemptId '<attempt>~part-<n>', status RUNNING) and dropped from state; the final run "
          + "holds the stages since the last part. 0 = no limit.");
  public static final Key PROFILES_MAX_RECORD_BYTES = key("profiles.max-record-bytes", "16777216",
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

  /** Defaults overridden by the given entries (keys validated). */
  public static JobConfig of(Map<String, String> overrides) {
    Map<String, String> v = new LinkedHashMap<>();
    KEYS.values().forEach(k -> v.put(k.name(), k.defaultValue()));
    overrides.forEach((k, val) -> v.put(check(k), val == null ? "" : val.trim()));
    return new JobConfig(v);
  }

  /** Defaults, then {@code --config FILE}, then system properties, then the arguments. */
  public static JobConfig fromArgs(String[] args) {
    Map<String, String> fromArgs = new LinkedHashMap<>();
    String configFile = null;
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      String k;
      String val;
      if (a.startsWith("--") && a.contains("=")) {
        k = a.substring(2, a.indexOf('='));
        val = a.substring(a.indexOf('=') + 1);
      } else if (a.startsWith("--")) {
        if (i + 1 >= args.length) {
          throw new IllegalArgumentException("missing value for " + a);
        }
        k = a.substring(2);
        val = args[++i];
      } else if (a.contains("=")) {
        k = a.substring(0, a.indexOf('='));
        val = a.substring(a.indexOf('=') + 1);
      } else {
        throw new IllegalArgumentException("cannot read argument '" + a + "': use --key value or key=value; "
            + "keys: " + KEYS.keySet());
      }
      if (k.equals("config")) {
        configFile = val;
      } else {
        fromArgs.put(k, val);
      }
    }
    Map<String, String> merged = new LinkedHashMap<>();
    if (configFile != null) {
      Properties p = new Properties();
      try (Reader r = Files.newBufferedReader(Path.of(configFile), StandardCharsets.UTF_8)) {
        p.load(r);
      } catch (IOException e) {
        throw new IllegalArgumentException("cannot read config file " + configFile + ": " + e.getMessage(), e);
      }
      p.stringPropertyNames().forEach(n -> merged.put(n, p.getProperty(n)));
    }
    System.getProperties().stringPropertyNames().stream()
        .filter(n -> n.startsWith(SYSTEM_PREFIX))
        .forEach(n -> merged.put(n.substring(SYSTEM_PREFIX.length()), System.getProperty(n)));
    merged.putAll(fromArgs);
    return of(merged);
  }

  private static String check(String key) {
    if (!KEYS.containsKey(key)) {
      throw new IllegalArgumentException("unknown setting '" + key + "'; known settings: " + KEYS.keySet());
    }
    return key;
  }

  /** A copy with some settings changed. */
  public JobConfig with(String key, String value) {
    Map<String, String> v = new LinkedHashMap<>(values);
    v.put(check(key), value);
    return new JobConfig(v);
  }

  public JobConfig with(Key key, String value) {
    return with(key.name(), value);
  }

  public String get(Key key) {
    return values.get(key.name());
  }

  public long getLong(Key key) {
    try {
      return Long.parseLong(get(key));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(key.name() + " must be a number, got '" + get(key) + "'", e);
    }
  }

  public int getInt(Key key) {
    return Math.toIntExact(getLong(key));
  }

  public boolean getBoolean(Key key) {
    String v = get(key).toLowerCase(Locale.ROOT);
    if (!v.equals("true") && !v.equals("false")) {
      throw new IllegalArgumentException(key.name() + " must be true or false, got '" + get(key) + "'");
    }
    return Boolean.parseBoolean(v);
  }

  public Duration getDuration(Key key) {
    return Duration.ofMillis(getLong(key));
  }

  public Map<String, String> asMap() {
    return values;
  }

  /** The documented keys in declaration order. */
  public static Map<String, Key> keys() {
    return Collections.unmodifiableMap(KEYS);
  }

  /** Human-readable help: every key, its default and meaning. */
  public static String help() {
    StringBuilder sb = new StringBuilder("Settings (--key value, key=value, --config FILE, -D"
        + SYSTEM_PREFIX + "key=value):\n");
    KEYS.values().forEach(k -> sb.append("  ").append(k.name()).append(" [").append(k.defaultValue())
        .append("]\n      ").append(k.meaning()).append('\n'));
    return sb.toString();
  }

  /** The settings for logs, with passwords in URLs masked. */
  @Override
  public String toString() {
    return values.toString()
        .replaceAll("(?i)(password=)[^&;,}]*", "$1***")
        .replaceAll("(//[^/:@,}]+:)[^/@,}]*@", "$1***@");
  }
}
