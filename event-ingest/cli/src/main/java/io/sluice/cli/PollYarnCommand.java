package io.sluice.cli;

import io.sluice.collect.YarnRmPoller;
import io.sluice.collect.metrics.MetricsEndpoint;
import io.sluice.collect.metrics.YarnPollerMetrics;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code sluice poll-yarn}: publish YARN application records from a ResourceManager to Kafka. */
@Command(
    name = "poll-yarn",
    mixinStandardHelpOptions = true,
    description =
        "Poll a YARN ResourceManager's REST API and publish changed application records (queue, "
            + "priority, user, state, attempts…) to sluice.yarn-apps. With --once, poll once and exit.")
public final class PollYarnCommand implements Callable<Integer> {
  @Option(
      names = "--rm",
      required = true,
      description = "ResourceManager base URL, e.g. http://rm:8088.")
  String rmUrl;

  @Option(names = "--bootstrap", required = true, description = "Kafka bootstrap servers.")
  String bootstrap;

  @Option(
      names = "--cluster",
      defaultValue = "default",
      description = "Cluster name (default: ${DEFAULT-VALUE}).")
  String cluster;

  @Option(
      names = "--state",
      description = "State file (watermark and per-app fingerprints) for restarts.")
  Path state;

  @Option(
      names = "--poll-seconds",
      defaultValue = "30",
      description = "Poll interval (default: ${DEFAULT-VALUE}).")
  long pollSeconds;

  @Option(names = "--once", description = "Poll once and exit.")
  boolean once;

  @Mixin MetricsOptions metrics;

  @Override
  public Integer call() throws Exception {
    YarnRmPoller.Config cfg =
        YarnRmPoller.Config.of(rmUrl, bootstrap)
            .withCluster(cluster)
            .withStateFile(state)
            .withPollInterval(Duration.ofSeconds(pollSeconds));
    try (YarnRmPoller poller = new YarnRmPoller(cfg)) {
      if (once) {
        System.err.println("poll-yarn: " + poller.pollOnce());
        return 0;
      }
      Runtime.getRuntime().addShutdownHook(new Thread(poller::close, "sluice-poll-yarn-stop"));
      try (MetricsEndpoint endpoint = metrics.start(new YarnPollerMetrics(poller))) {
        poller.run();
      }
    }
    return 0;
  }
}
