package io.sluice.contracts.kafka;

/**
 * The default names of Sluice's Kafka topics (docs/topics.md). Values are JSON, keyed by the Spark
 * application id. Every component takes its topic from its own configuration; these are the
 * defaults they all agree on.
 */
public final class Topics {
  private Topics() {}

  /**
   * {@link EventEnvelope}s: listener events from the Spark listener and the event-log collector.
   */
  public static final String SPARK_EVENTS = "sluice.spark-events";

  /** YARN application records from the ResourceManager poller. */
  public static final String YARN_APPS = "sluice.yarn-apps";

  /** Profiled runs ({@code AppRun}) from the Flink job. */
  public static final String PROFILES = "sluice.profiles";

  /** Runs a sink of the Flink job could not take, with the reason. */
  public static final String PROFILES_DEAD_LETTER = "sluice.profiles.dead-letter";

  /** Node state changes and per-application decisions of the ESS gates. */
  public static final String THROTTLE_EVENTS = "sluice.throttle-events";
}
