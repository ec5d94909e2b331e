package io.sluice.flink;

import io.sluice.kafka.security.KafkaClientSecurity;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.ExternalizedCheckpointRetention;
import org.apache.flink.configuration.JobManagerOptions;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.StateBackendOptions;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.connector.kafka.sink.KafkaSinkBuilder;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.KafkaSourceBuilder;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.core.execution.CheckpointingMode;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.OffsetResetStrategy;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sluice's Flink job: Spark event envelopes and YARN app records in, profiled {@code AppRun}s out.
 *
 * <pre>
 *  KafkaSource sluice.spark-events ─┐                                        ┌─▶ HistoryStoreSink (batched upserts)
 *                                   ├─ connect, keyBy(appId) ─ ShuffleProfileFunction ─┤
 *  KafkaSource sluice.yarn-apps ────┘   (AppFolder per attempt, seq dedup,   └─▶ KafkaSink sluice.profiles
 *                                        YARN join, rules, retention timers)
 * </pre>
 *
 * <p>Guarantees: operator state and source offsets are checkpointed together (exactly-once state by
 * default). The store sink flushes on every checkpoint and the store is idempotent by run identity
 * with deterministic versions, so stored rows are effectively exactly-once; the profiles topic is
 * at-least-once by default (consumers dedupe by run key + updatedAt) or exactly-once with Kafka
 * transactions.
 *
 * <p>Running: {@code java -cp "target/classes:target/lib/*" io.sluice.flink.ShuffleProfileJob --key
 * value ...} runs on a local MiniCluster and resumes from the newest checkpoint under {@code
 * checkpoint.dir}; {@code flink run target/sluice-flink-job-*-job.jar --local false ...} runs on a
 * cluster. {@code --help} lists every setting ({@link JobConfig}).
 */
public final class ShuffleProfileJob {
  private static final Logger LOG = LoggerFactory.getLogger(ShuffleProfileJob.class);

  private ShuffleProfileJob() {}

  public static void main(String[] args) throws Exception {
    if (Arrays.asList(args).contains("--help") || Arrays.asList(args).contains("-h")) {
      System.out.println(JobConfig.help());
      return;
    }
    JobConfig config = JobConfig.fromArgs(args);
    LOG.info("starting with {}", config);
    if (config.getBoolean(JobConfig.TOPICS_CREATE)) {
      createTopics(config);
    }
    StreamExecutionEnvironment env = environment(config);
    build(env, config);
    org.apache.flink.core.execution.JobClient client =
        env.executeAsync(config.get(JobConfig.JOB_NAME));
    // One machine-readable line for launch scripts (deploy/bin/sluice-stack waits for it).
    System.out.println("SHUFFLE_PROFILE_JOB_SUBMITTED jobId=" + client.getJobID());
    System.out.flush();
    client.getJobExecutionResult().get();
  }

  /** The Flink settings this job relies on, derived from its config. */
  public static Configuration flinkConfiguration(JobConfig config) {
    Configuration conf = new Configuration();
    // Every type on the wire and in state is a POJO, a basic type or has its own serializer: prove
    // it.
    conf.set(PipelineOptions.GENERIC_TYPES, false);
    conf.set(
        CheckpointingOptions.CHECKPOINTING_INTERVAL,
        config.getDuration(JobConfig.CHECKPOINT_INTERVAL_MS));
    conf.set(CheckpointingOptions.CHECKPOINTING_CONSISTENCY_MODE, checkpointingMode(config));
    conf.set(
        CheckpointingOptions.EXTERNALIZED_CHECKPOINT_RETENTION,
        ExternalizedCheckpointRetention.RETAIN_ON_CANCELLATION);
    conf.set(CheckpointingOptions.CHECKPOINTS_DIRECTORY, checkpointDir(config));
    // Heap state: the profile operator mutates its folders in place; RocksDB would re-serialise a
    // folder per event.
    conf.set(StateBackendOptions.STATE_BACKEND, "hashmap");
    int parallelism = config.getInt(JobConfig.PARALLELISM);
    if (parallelism > 0) {
      conf.set(CoreOptions.DEFAULT_PARALLELISM, parallelism);
    }
    conf.set(PipelineOptions.MAX_PARALLELISM, config.getInt(JobConfig.MAX_PARALLELISM));
    String resumeFrom = config.get(JobConfig.RESUME_FROM);
    if (!resumeFrom.isBlank()) {
      conf.set(StateRecoveryOptions.SAVEPOINT_PATH, resumeFrom);
    }
    return conf;
  }

  /**
   * {@code checkpoint.dir}, or for a local run without one {@code .sluice/flink-checkpoints} under
   * the working directory. A cluster run without one fails: its default would be a path on some
   * TaskManager's disk.
   */
  static String checkpointDir(JobConfig config) {
    String dir = config.get(JobConfig.CHECKPOINT_DIR);
    if (!dir.isBlank()) {
      return dir;
    }
    if (!config.getBoolean(JobConfig.LOCAL)) {
      throw new IllegalArgumentException(
          "checkpoint.dir is required when local=false: give durable storage every "
              + "TaskManager reaches (e.g. hdfs:///sluice/checkpoints or s3://bucket/sluice/checkpoints)");
    }
    return Path.of(".sluice", "flink-checkpoints").toAbsolutePath().toUri().toString();
  }

  private static CheckpointingMode checkpointingMode(JobConfig config) {
    return switch (config.get(JobConfig.CHECKPOINT_MODE).toLowerCase(Locale.ROOT)) {
      case "exactly-once", "exactly_once" -> CheckpointingMode.EXACTLY_ONCE;
      case "at-least-once", "at_least_once" -> CheckpointingMode.AT_LEAST_ONCE;
      default ->
          throw new IllegalArgumentException(
              "checkpoint.mode must be exactly-once or at-least-once, got '"
                  + config.get(JobConfig.CHECKPOINT_MODE)
                  + "'");
    };
  }

  private static final String LOOPBACK = "127.0.0.1";

  /**
   * A local MiniCluster environment ({@code local=true}, resuming from the newest retained
   * checkpoint when {@code local.resume=true}) or the surrounding one ({@code flink run}, tests'
   * MiniClusterExtension).
   */
  public static StreamExecutionEnvironment environment(JobConfig config) {
    Configuration conf = flinkConfiguration(config);
    StreamExecutionEnvironment env;
    if (config.getBoolean(JobConfig.LOCAL)) {
      if (config.get(JobConfig.RESUME_FROM).isBlank()
          && config.getBoolean(JobConfig.LOCAL_RESUME)) {
        latestCheckpoint(checkpointDir(config))
            .ifPresent(
                p -> {
                  LOG.info("resuming from checkpoint {}", p);
                  conf.set(StateRecoveryOptions.SAVEPOINT_PATH, p.toUri().toString());
                });
      }
      // a local MiniCluster is for one host: its REST and RPC endpoints listen on loopback only
      conf.set(RestOptions.BIND_ADDRESS, LOOPBACK);
      conf.set(RestOptions.ADDRESS, LOOPBACK);
      conf.set(JobManagerOptions.BIND_HOST, LOOPBACK);
      conf.set(TaskManagerOptions.BIND_HOST, LOOPBACK);
      conf.set(TaskManagerOptions.HOST, LOOPBACK);
      env = StreamExecutionEnvironment.createLocalEnvironment(conf);
    } else {
      env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
      env.configure(conf);
    }
    int parallelism = config.getInt(JobConfig.PARALLELISM);
    if (parallelism > 0) {
      env.setParallelism(parallelism);
    }
    return env;
  }

  /**
   * The newest completed checkpoint ({@code JOBID/chk-N/_metadata}) under a {@code file:}
   * checkpoint directory, or empty (no directory, another filesystem, or no completed checkpoint
   * yet).
   */
  public static Optional<Path> latestCheckpoint(String checkpointDir) {
    Path root;
    try {
      URI uri = URI.create(checkpointDir);
      if (uri.getScheme() != null && !uri.getScheme().equals("file")) {
        return Optional.empty();
      }
      root = uri.getScheme() == null ? Path.of(checkpointDir) : Path.of(uri);
    } catch (IllegalArgumentException e) {
      root = Path.of(checkpointDir);
    }
    if (!Files.isDirectory(root)) {
      return Optional.empty();
    }
    try (Stream<Path> files =
        Files.find(
            root,
            3,
            (p, a) ->
                a.isRegularFile()
                    && p.getFileName().toString().equals("_metadata")
                    && p.getParent().getFileName().toString().startsWith("chk-"))) {
      return files
          .max(
              Comparator.comparing(ShuffleProfileJob::modified)
                  .thenComparing(p -> checkpointNumber(p.getParent())))
          .map(Path::getParent);
    } catch (IOException e) {
      LOG.warn("cannot search {} for checkpoints: {}", root, e.toString());
      return Optional.empty();
    }
  }

  private static FileTime modified(Path p) {
    try {
      return Files.getLastModifiedTime(p);
    } catch (IOException e) {
      return FileTime.fromMillis(0);
    }
  }

  private static long checkpointNumber(Path chkDir) {
    try {
      return Long.parseLong(chkDir.getFileName().toString().substring("chk-".length()));
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  /** Builds the topology on {@code env}. */
  public static void build(StreamExecutionEnvironment env, JobConfig config) {
    build(env, config, UnaryOperator.identity());
  }

  /**
   * Builds the topology; {@code eventsHook} may insert an operator between the events source and
   * the keyed operator (tests use it to inject a failure mid-stream).
   */
  static SingleOutputStreamOperator<RunUpdate> build(
      StreamExecutionEnvironment env,
      JobConfig config,
      UnaryOperator<DataStream<KafkaPayload>> eventsHook) {
    String bootstrap = config.get(JobConfig.BOOTSTRAP_SERVERS);
    DataStream<KafkaPayload> events =
        env.fromSource(
                source(
                    config,
                    config.get(JobConfig.TOPIC_EVENTS),
                    KafkaPayloadDeserializer.Kind.EVENTS),
                WatermarkStrategy.noWatermarks(),
                "spark-events")
            .uid("spark-events-source");
    DataStream<KafkaPayload> yarn =
        env.fromSource(
                source(
                    config, config.get(JobConfig.TOPIC_YARN), KafkaPayloadDeserializer.Kind.YARN),
                WatermarkStrategy.noWatermarks(),
                "yarn-apps")
            .uid("yarn-apps-source");

    SingleOutputStreamOperator<RunUpdate> runs =
        eventsHook
            .apply(events)
            .connect(yarn)
            .keyBy(new AppIdKey(), new AppIdKey())
            .process(ShuffleProfileFunction.from(config))
            .returns(RunUpdate.class)
            .uid("shuffle-profiles")
            .name("shuffle-profiles");

    String storeUrl = config.get(JobConfig.STORE_URL);
    String deadLetters = config.get(JobConfig.TOPIC_DEAD_LETTER);
    if (!storeUrl.isBlank()) {
      runs.sinkTo(
              new HistoryStoreSink(
                  storeUrl,
                  config.getInt(JobConfig.STORE_BATCH_SIZE),
                  config.getLong(JobConfig.STORE_FLUSH_INTERVAL_MS),
                  kafkaClient(config),
                  deadLetters))
          .uid("history-store-sink")
          .name("history-store");
    }
    String delivery = config.get(JobConfig.KAFKA_SINK).toLowerCase(Locale.ROOT);
    if (!delivery.equals("none")) {
      long maxRecord = config.getLong(JobConfig.PROFILES_MAX_RECORD_BYTES);
      KafkaSinkBuilder<RunUpdate> sink =
          KafkaSink.<RunUpdate>builder()
              .setBootstrapServers(bootstrap)
              .setKafkaProducerConfig(kafkaClient(config))
              // AppRun JSON is repetitive: zstd shrinks it about tenfold, so large runs fit the
              // broker's limits
              .setProperty("compression.type", "zstd")
              .setProperty("max.request.size", String.valueOf(maxRecord + RECORD_OVERHEAD))
              .setRecordSerializer(
                  new RunUpdateSerializer(
                      config.get(JobConfig.TOPIC_PROFILES), deadLetters, maxRecord));
      switch (delivery) {
        case "at-least-once" -> sink.setDeliveryGuarantee(DeliveryGuarantee.AT_LEAST_ONCE);
        case "exactly-once" ->
            sink.setDeliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE)
                .setTransactionalIdPrefix(config.get(JobConfig.JOB_NAME) + "-profiles")
                // below the broker's default transaction.max.timeout.ms (15 min)
                .setProperty(
                    "transaction.timeout.ms", String.valueOf(TimeUnit.MINUTES.toMillis(10)));
        default ->
            throw new IllegalArgumentException(
                "kafka.sink must be at-least-once, exactly-once or none, got '" + delivery + "'");
      }
      runs.sinkTo(sink.build()).uid("profiles-kafka-sink").name("profiles-topic");
    }
    return runs;
  }

  /**
   * The Kafka security settings of every client of the job ({@link
   * JobConfig#KAFKA_CLIENT_PROPERTIES}).
   */
  static Map<String, String> kafkaSecurity(JobConfig config) {
    String file = config.get(JobConfig.KAFKA_CLIENT_PROPERTIES);
    return KafkaClientSecurity.load(
        System.getenv(),
        file.isBlank() ? System.getProperty(KafkaClientSecurity.PROPERTY_FILE) : file);
  }

  private static KafkaSource<KafkaPayload> source(
      JobConfig config, String topic, KafkaPayloadDeserializer.Kind kind) {
    KafkaSourceBuilder<KafkaPayload> source = KafkaSource.<KafkaPayload>builder();
    kafkaSecurity(config).forEach(source::setProperty);
    return source
        .setBootstrapServers(config.get(JobConfig.BOOTSTRAP_SERVERS))
        .setTopics(topic)
        .setGroupId(config.get(JobConfig.GROUP_ID))
        .setStartingOffsets(startingOffsets(config))
        .setDeserializer(new KafkaPayloadDeserializer(kind))
        .setProperty(
            "client.id.prefix",
            config.get(JobConfig.GROUP_ID) + "-" + kind.name().toLowerCase(Locale.ROOT))
        .setProperty("partition.discovery.interval.ms", "60000")
        .build();
  }

  private static OffsetsInitializer startingOffsets(JobConfig config) {
    return switch (config.get(JobConfig.STARTING_OFFSETS).toLowerCase(Locale.ROOT)) {
      case "committed-or-earliest" ->
          OffsetsInitializer.committedOffsets(OffsetResetStrategy.EARLIEST);
      case "earliest" -> OffsetsInitializer.earliest();
      case "latest" -> OffsetsInitializer.latest();
      default ->
          throw new IllegalArgumentException(
              "starting.offsets must be committed-or-earliest, earliest or "
                  + "latest, got '"
                  + config.get(JobConfig.STARTING_OFFSETS)
                  + "'");
    };
  }

  /** Room for a record's key, headers and batch framing above {@code profiles.max-record-bytes}. */
  static final long RECORD_OVERHEAD = 64 * 1024;

  /** Kafka client properties every client of the job shares (bootstrap servers, SASL/SSL). */
  static Properties kafkaClient(JobConfig config) {
    Properties p = new Properties();
    p.put("bootstrap.servers", config.get(JobConfig.BOOTSTRAP_SERVERS));
    p.putAll(kafkaSecurity(config));
    return p;
  }

  /**
   * Creates the events, YARN, profiles and dead-letter topics if missing (a KafkaSource needs its
   * topics to exist). The profiles and dead-letter topics take records up to {@code
   * profiles.max-record-bytes}: created so, or raised to it if they exist with a smaller {@code
   * max.message.bytes}.
   */
  public static void createTopics(JobConfig config) throws InterruptedException {
    Properties props = new Properties();
    props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, config.get(JobConfig.BOOTSTRAP_SERVERS));
    props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "30000");
    props.putAll(kafkaSecurity(config));
    int partitions = config.getInt(JobConfig.TOPICS_PARTITIONS);
    short replication = (short) config.getInt(JobConfig.TOPICS_REPLICATION);
    List<String> topics =
        List.of(
            config.get(JobConfig.TOPIC_EVENTS),
            config.get(JobConfig.TOPIC_YARN),
            config.get(JobConfig.TOPIC_PROFILES),
            config.get(JobConfig.TOPIC_DEAD_LETTER));
    Set<String> large =
        Set.of(config.get(JobConfig.TOPIC_PROFILES), config.get(JobConfig.TOPIC_DEAD_LETTER));
    String maxMessage =
        String.valueOf(config.getLong(JobConfig.PROFILES_MAX_RECORD_BYTES) + RECORD_OVERHEAD);
    try (Admin admin = Admin.create(props)) {
      for (String topic : topics) {
        NewTopic spec = new NewTopic(topic, partitions, replication);
        if (large.contains(topic)) {
          spec.configs(Map.of(TopicConfig.MAX_MESSAGE_BYTES_CONFIG, maxMessage));
        }
        try {
          admin.createTopics(List.of(spec)).all().get(30, TimeUnit.SECONDS);
          LOG.info(
              "created topic {} ({} partitions, replication {})", topic, partitions, replication);
        } catch (ExecutionException e) {
          if (!(e.getCause() instanceof TopicExistsException)) {
            throw new IllegalStateException(
                "cannot create topic "
                    + topic
                    + " on "
                    + config.get(JobConfig.BOOTSTRAP_SERVERS)
                    + ": "
                    + e.getCause(),
                e.getCause());
          }
          if (large.contains(topic)) {
            raiseMaxMessageBytes(admin, topic, maxMessage);
          }
        } catch (java.util.concurrent.TimeoutException e) {
          throw new IllegalStateException(
              "Kafka at "
                  + config.get(JobConfig.BOOTSTRAP_SERVERS)
                  + " did not answer within 30 s while creating "
                  + topic,
              e);
        }
      }
    }
  }

  private static void raiseMaxMessageBytes(Admin admin, String topic, String bytes)
      throws InterruptedException {
    ConfigResource res = new ConfigResource(ConfigResource.Type.TOPIC, topic);
    try {
      String current =
          admin
              .describeConfigs(List.of(res))
              .all()
              .get(30, TimeUnit.SECONDS)
              .get(res)
              .get(TopicConfig.MAX_MESSAGE_BYTES_CONFIG)
              .value();
      if (Long.parseLong(current) < Long.parseLong(bytes)) {
        admin
            .incrementalAlterConfigs(
                Map.of(
                    res,
                    List.of(
                        new AlterConfigOp(
                            new ConfigEntry(TopicConfig.MAX_MESSAGE_BYTES_CONFIG, bytes),
                            AlterConfigOp.OpType.SET))))
            .all()
            .get(30, TimeUnit.SECONDS);
        LOG.info("raised max.message.bytes of topic {} from {} to {}", topic, current, bytes);
      }
    } catch (ExecutionException | java.util.concurrent.TimeoutException | RuntimeException e) {
      LOG.warn(
          "cannot check or raise max.message.bytes of topic {} (runs above its limit will fail the sink "
              + "until it is raised): {}",
          topic,
          e.toString());
    }
  }

  /** Key of both inputs: the application id. */
  static final class AppIdKey implements KeySelector<KafkaPayload, String> {
    private static final long serialVersionUID = 1L;

    @Override
    public String getKey(KafkaPayload value) {
      return value.appId;
    }
  }
}
