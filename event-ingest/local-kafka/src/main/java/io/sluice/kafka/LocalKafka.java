package io.sluice.kafka;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.metadata.storage.Formatter;
import org.apache.kafka.server.common.Features;
import org.apache.kafka.server.common.MetadataVersion;
import picocli.CommandLine;

/**
 * A single-node Kafka (KRaft, combined broker + controller) running inside the current JVM on the
 * loopback interface. Meant for tests and the embedded demo stack, never for production.
 *
 * <pre>{@code
 * try (LocalKafka kafka = LocalKafka.builder().build().start()) {
 *     kafka.createTopics(1, "sluice.spark-events");
 *     String bootstrap = kafka.bootstrapServers();   // 127.0.0.1:PORT
 * }
 * }</pre>
 *
 * <p>The log directory is formatted on first start; starting again on the same directory keeps the
 * data (the cluster id is read back from {@code meta.properties}). A temporary directory is used,
 * and deleted on {@link #close()}, when no directory is given.
 */
public final class LocalKafka implements AutoCloseable {

  /** Cluster id written when a fresh directory is formatted (any 22-char base64 uuid works). */
  static final String DEFAULT_CLUSTER_ID = "c2x1aWNlLWxvY2FsLWthZg";

  static final int NODE_ID = 1;
  static final String CONTROLLER_LISTENER = "CONTROLLER";
  static final String SASL_LISTENER = "SASL_PLAINTEXT";

  private final int requestedPort;
  private final Path logDir;
  private final boolean deleteOnClose;
  private final Map<String, String> overrides;
  private final Map<String, String> saslUsers;

  private KafkaRaftServer server;
  private int port;
  private int saslPort;
  private int controllerPort;

  private LocalKafka(Builder b) {
    this.requestedPort = b.port;
    try {
      this.deleteOnClose = b.logDir == null;
      this.logDir =
          b.logDir != null ? b.logDir.toAbsolutePath() : Files.createTempDirectory("sluice-kafka-");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    this.overrides = Map.copyOf(b.overrides);
    this.saslUsers = Map.copyOf(b.saslUsers);
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Formats the log directory if needed, starts the broker and waits until it serves requests. */
  public synchronized LocalKafka start() {
    if (server != null) {
      return this;
    }
    try {
      Files.createDirectories(logDir);
      port = requestedPort > 0 ? requestedPort : freePort();
      controllerPort = freePort();
      saslPort = saslUsers.isEmpty() ? 0 : freePort();
      Properties props = brokerProperties();
      KafkaConfig config = KafkaConfig.fromProps(props, false);
      if (!Files.exists(logDir.resolve("meta.properties"))) {
        format();
      }
      KafkaRaftServer s = new KafkaRaftServer(config, Time.SYSTEM);
      s.startup();
      server = s;
      awaitReady(Duration.ofSeconds(60));
      return this;
    } catch (IOException e) {
      closeQuietly();
      throw new UncheckedIOException(e);
    } catch (RuntimeException e) {
      closeQuietly();
      throw e;
    } catch (Exception e) {
      closeQuietly();
      throw new IllegalStateException("could not start local Kafka in " + logDir, e);
    }
  }

  private Properties brokerProperties() {
    Properties p = new Properties();
    p.put("process.roles", "broker,controller");
    p.put("node.id", String.valueOf(NODE_ID));
    p.put("controller.quorum.voters", NODE_ID + "@127.0.0.1:" + controllerPort);
    p.put("controller.listener.names", CONTROLLER_LISTENER);
    p.put(
        "listeners",
        "PLAINTEXT://127.0.0.1:"
            + port
            + ","
            + CONTROLLER_LISTENER
            + "://127.0.0.1:"
            + controllerPort
            + (saslUsers.isEmpty() ? "" : "," + SASL_LISTENER + "://127.0.0.1:" + saslPort));
    p.put(
        "advertised.listeners",
        "PLAINTEXT://127.0.0.1:"
            + port
            + (saslUsers.isEmpty() ? "" : "," + SASL_LISTENER + "://127.0.0.1:" + saslPort));
    p.put(
        "listener.security.protocol.map",
        "PLAINTEXT:PLAINTEXT,"
            + CONTROLLER_LISTENER
            + ":PLAINTEXT,"
            + SASL_LISTENER
            + ":SASL_PLAINTEXT");
    if (!saslUsers.isEmpty()) {
      p.put("sasl.enabled.mechanisms", "PLAIN");
      StringBuilder jaas =
          new StringBuilder("org.apache.kafka.common.security.plain.PlainLoginModule required");
      saslUsers.forEach(
          (user, password) ->
              jaas.append(" user_").append(user).append("=\"").append(password).append('"'));
      p.put(
          "listener.name."
              + SASL_LISTENER.toLowerCase(java.util.Locale.ROOT)
              + ".plain.sasl.jaas.config",
          jaas.append(';').toString());
    }
    p.put("inter.broker.listener.name", "PLAINTEXT");
    p.put("log.dirs", logDir.toString());
    // single node: every internal topic has one replica
    p.put("offsets.topic.replication.factor", "1");
    p.put("offsets.topic.num.partitions", "4");
    p.put("transaction.state.log.replication.factor", "1");
    p.put("transaction.state.log.min.isr", "1");
    p.put("transaction.state.log.num.partitions", "4");
    p.put("group.initial.rebalance.delay.ms", "0");
    p.put("num.partitions", "1");
    p.put("auto.create.topics.enable", "true");
    // small footprint: few threads, small cleaner buffer (the default allocates 128 MB of heap)
    p.put("num.network.threads", "2");
    p.put("num.io.threads", "2");
    p.put("background.threads", "2");
    p.put("num.recovery.threads.per.data.dir", "1");
    p.put("num.replica.fetchers", "1");
    p.put("log.cleaner.threads", "1");
    p.put("log.cleaner.dedupe.buffer.size", String.valueOf(2 * 1024 * 1024));
    p.put("log.cleaner.io.buffer.size", String.valueOf(256 * 1024));
    p.put("log.index.size.max.bytes", String.valueOf(1024 * 1024));
    p.put("log.segment.bytes", String.valueOf(64 * 1024 * 1024));
    // Spark events (environment updates, SQL plans) can be large
    p.put("message.max.bytes", String.valueOf(16 * 1024 * 1024));
    p.put("replica.fetch.max.bytes", String.valueOf(16 * 1024 * 1024));
    p.put("controlled.shutdown.enable", "true");
    p.putAll(overrides);
    return p;
  }

  private void format() throws Exception {
    PrintStream quiet = new PrintStream(OutputStream.nullOutputStream());
    new Formatter()
        .setPrintStream(quiet)
        .setNodeId(NODE_ID)
        .setClusterId(DEFAULT_CLUSTER_ID)
        .addDirectory(logDir.toString())
        .setMetadataLogDirectory(logDir.toString())
        .setControllerListenerName(CONTROLLER_LISTENER)
        .setReleaseVersion(MetadataVersion.latestProduction())
        .setSupportedFeatures(Features.PRODUCTION_FEATURES)
        .setIgnoreFormatted(true)
        .run();
  }

  private void awaitReady(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    Exception last = null;
    try (Admin admin = admin()) {
      while (System.nanoTime() < deadline) {
        try {
          if (!admin.describeCluster().nodes().get(5, TimeUnit.SECONDS).isEmpty()) {
            return;
          }
        } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
          last = e;
        }
        Thread.sleep(100);
      }
    }
    throw new IllegalStateException("local Kafka did not become ready within " + timeout, last);
  }

  /** {@code 127.0.0.1:PORT}. Only valid after {@link #start()}. */
  public String bootstrapServers() {
    if (server == null) {
      throw new IllegalStateException("not started");
    }
    return "127.0.0.1:" + port;
  }

  public int port() {
    return port;
  }

  /**
   * {@code 127.0.0.1:PORT} of the SASL/PLAIN listener ({@code security.protocol=SASL_PLAINTEXT},
   * {@code sasl.mechanism=PLAIN}, the users given to {@link Builder#saslPlainUser}). Only valid
   * after {@link #start()} and with at least one such user.
   */
  public String saslBootstrapServers() {
    if (server == null || saslUsers.isEmpty()) {
      throw new IllegalStateException(server == null ? "not started" : "no SASL users configured");
    }
    return "127.0.0.1:" + saslPort;
  }

  public Path logDir() {
    return logDir;
  }

  public boolean isRunning() {
    return server != null;
  }

  /** A new Admin client for this broker; the caller closes it. */
  public Admin admin() {
    Map<String, Object> conf = new HashMap<>();
    conf.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:" + port);
    conf.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
    conf.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 20_000);
    return Admin.create(conf);
  }

  /** Creates the topics (one replica) if they do not exist yet. */
  public void createTopics(int partitions, String... topics) {
    createTopics(partitions, List.of(topics));
  }

  public void createTopics(int partitions, Collection<String> topics) {
    List<NewTopic> newTopics = new ArrayList<>();
    for (String t : topics) {
      newTopics.add(new NewTopic(t, partitions, (short) 1));
    }
    try (Admin admin = admin()) {
      for (var e : admin.createTopics(newTopics).values().entrySet()) {
        try {
          e.getValue().get(30, TimeUnit.SECONDS);
        } catch (ExecutionException ex) {
          if (!(ex.getCause() instanceof TopicExistsException)) {
            throw new IllegalStateException("could not create topic " + e.getKey(), ex.getCause());
          }
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    } catch (java.util.concurrent.TimeoutException e) {
      throw new IllegalStateException("topic creation timed out", e);
    }
  }

  /** Stops the broker (data stays in the log dir unless it was a temporary one). */
  public synchronized void stop() {
    if (server != null) {
      KafkaRaftServer s = server;
      server = null;
      s.shutdown();
      s.awaitShutdown();
    }
  }

  @Override
  public synchronized void close() {
    stop();
    if (deleteOnClose) {
      deleteRecursively(logDir);
    }
  }

  private void closeQuietly() {
    try {
      stop();
    } catch (RuntimeException ignored) {
      // start failed; nothing useful to add
    }
  }

  static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      s.setReuseAddress(true);
      return s.getLocalPort();
    }
  }

  static void deleteRecursively(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(dir)) {
      walk.sorted(Comparator.reverseOrder())
          .forEach(
              p -> {
                try {
                  Files.deleteIfExists(p);
                } catch (IOException ignored) {
                  // best effort
                }
              });
    } catch (IOException ignored) {
      // best effort
    }
  }

  public static final class Builder {
    private int port;
    private Path logDir;
    private final Map<String, String> overrides = new HashMap<>();
    private final Map<String, String> saslUsers = new java.util.TreeMap<>();

    /** Broker port on 127.0.0.1; 0 (default) picks a free one. */
    public Builder port(int port) {
      this.port = port;
      return this;
    }

    /** Persistent log directory; default a temporary one deleted on close. */
    public Builder logDir(Path logDir) {
      this.logDir = logDir;
      return this;
    }

    /**
     * Adds a second client listener that requires SASL/PLAIN authentication, with this user (call
     * again for more); the plaintext listener stays for the broker's own and the test's
     * administration.
     */
    public Builder saslPlainUser(String user, String password) {
      if (!user.matches("[A-Za-z0-9_-]+") || password.contains("\"")) {
        throw new IllegalArgumentException(
            "SASL user names are [A-Za-z0-9_-]+ and passwords have no quote: " + user);
      }
      saslUsers.put(user, password);
      return this;
    }

    /** Any broker property, applied last. */
    public Builder brokerProperty(String key, String value) {
      overrides.put(key, value);
      return this;
    }

    public LocalKafka build() {
      return new LocalKafka(this);
    }
  }

  /**
   * Runs a broker as its own process ({@link LocalKafkaCommand}; {@code --help} lists the options).
   */
  public static void main(String[] args) {
    if (System.getProperty("org.slf4j.simpleLogger.defaultLogLevel") == null) {
      System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
    }
    int rc = new CommandLine(new LocalKafkaCommand()).execute(args);
    if (rc != 0) {
      System.exit(rc);
    }
  }
}
