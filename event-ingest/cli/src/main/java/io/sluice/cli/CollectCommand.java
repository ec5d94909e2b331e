package io.sluice.cli;

import io.sluice.collect.EventLogCollector;
import io.sluice.collect.metrics.EventLogCollectorMetrics;
import io.sluice.collect.metrics.MetricsEndpoint;
import io.sluice.ingest.envelope.EnvelopeBatch;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code sluice collect}: backfill event-log directories into Kafka, optionally following new and
 * growing logs.
 */
@Command(
    name = "collect",
    mixinStandardHelpOptions = true,
    description =
        "Publish Spark event logs (files, directories, or any Hadoop-compatible path) to Kafka as "
            + "sluice.spark-events envelopes: backfill with a progress bar, then with --follow tail new and growing "
            + "logs. Resumes from its offsets file after a restart without duplicates.")
public final class CollectCommand implements Callable<Integer> {
  @Parameters(arity = "1..*", paramLabel = "PATH", description = "Event-log files or directories.")
  List<String> paths;

  @Option(names = "--bootstrap", required = true, description = "Kafka bootstrap servers.")
  String bootstrap;

  @Option(
      names = "--cluster",
      defaultValue = "default",
      description = "Cluster name put in every envelope (default: ${DEFAULT-VALUE}).")
  String cluster;

  @Option(
      names = "--topic",
      defaultValue = EventLogCollector.Config.DEFAULT_TOPIC,
      description = "Topic (default: ${DEFAULT-VALUE}).")
  String topic;

  @Option(
      names = "--offsets",
      description = "Offsets file recording what was published (enables resume).")
  Path offsets;

  @Option(names = "--follow", description = "Keep running: pick up new and growing logs.")
  boolean follow;

  @Option(
      names = "--poll-seconds",
      defaultValue = "5",
      description = "Poll interval with --follow (default: ${DEFAULT-VALUE}).")
  long pollSeconds;

  @Option(names = "--no-progress", description = "Do not draw a progress bar.")
  boolean noProgress;

  @Option(
      names = "--whole-events",
      description =
          "Publish every line as written instead of cut down to the fields "
              + "the profile reads (a task end keeps about a fifth of its bytes).")
  boolean wholeEvents;

  @Option(
      names = "--batch-events",
      defaultValue = "" + EnvelopeBatch.DEFAULT_MAX_EVENTS,
      description =
          "At most this "
              + "many consecutive lines of one log per Kafka record; 1 with --whole-events publishes one envelope per line, "
              + "as the Spark listener does (default: ${DEFAULT-VALUE}).")
  int batchEvents;

  @Option(
      names = "--batch-bytes",
      defaultValue = "" + EnvelopeBatch.DEFAULT_MAX_BYTES,
      description =
          "At most this "
              + "many bytes of events per record unless one line is larger; keep it under the topic's max.message.bytes "
              + "(default: ${DEFAULT-VALUE}).")
  int batchBytes;

  @Mixin MetricsOptions metrics;

  @Override
  public Integer call() throws Exception {
    EventLogCollector.Config cfg =
        EventLogCollector.Config.of(paths, bootstrap)
            .withCluster(cluster)
            .withTopic(topic)
            .withOffsetsFile(offsets)
            .withFollow(follow)
            .withPollInterval(Duration.ofSeconds(pollSeconds))
            .withProgress(!noProgress)
            .withPrune(!wholeEvents)
            .withBatchEvents(batchEvents)
            .withBatchBytes(batchBytes);
    EventLogCollector collector = new EventLogCollector(cfg);
    Thread stop = new Thread(collector::close, "sluice-collect-stop");
    Runtime.getRuntime().addShutdownHook(stop);
    try (MetricsEndpoint endpoint = metrics.start(new EventLogCollectorMetrics(collector))) {
      collector.run();
    }
    System.err.println("collect: " + collector.stats());
    return 0;
  }
}
