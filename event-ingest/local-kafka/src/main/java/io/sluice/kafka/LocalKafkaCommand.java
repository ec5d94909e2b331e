package io.sluice.kafka;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code LocalKafka} as its own process: starts a broker, creates the topics asked for, prints
 * {@code KAFKA_BOOTSTRAP=127.0.0.1:PORT} once ready and stops cleanly on SIGTERM/SIGINT.
 */
@Command(
    name = "LocalKafka",
    mixinStandardHelpOptions = true,
    description = "An in-JVM KRaft Kafka broker on 127.0.0.1 for tests and the embedded stack.")
final class LocalKafkaCommand implements Callable<Integer> {
  @Option(names = "--port", description = "Broker port; 0 (default) picks a free one.")
  int port;

  @Option(names = "--log-dir", description = "Log directory; default a fresh temporary directory.")
  Path logDir;

  @Option(
      names = "--topics",
      split = ",",
      description = "Topics to create at start, comma-separated.")
  List<String> topics = new ArrayList<>();

  @Option(
      names = "--partitions",
      defaultValue = "1",
      description = "Partitions of each created topic (default 1).")
  int partitions;

  @Override
  public Integer call() throws Exception {
    LocalKafka.Builder b = LocalKafka.builder().port(port);
    if (logDir != null) {
      b.logDir(logDir);
    }
    LocalKafka kafka = b.build();
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  try {
                    kafka.close();
                  } finally {
                    stopped.countDown();
                  }
                },
                "local-kafka-shutdown"));
    kafka.start();
    if (!topics.isEmpty()) {
      kafka.createTopics(partitions, topics);
    }
    System.out.println("KAFKA_BOOTSTRAP=" + kafka.bootstrapServers());
    System.out.flush();
    stopped.await();
    return 0;
  }
}
