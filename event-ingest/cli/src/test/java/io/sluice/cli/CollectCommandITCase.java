package io.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.ingest.envelope.EnvelopeCodec;
import io.sluice.kafka.LocalKafkaExtension;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code sluice collect} against a real in-JVM broker: every line of a real event log published
 * once.
 */
class CollectCommandITCase {
  @RegisterExtension
  static final LocalKafkaExtension KAFKA =
      new LocalKafkaExtension().withTopics("sluice.spark-events");

  @TempDir Path tmp;

  static Path healthyPlainFixture() throws IOException {
    Path root = Paths.get(System.getProperty("sluice.root", "../.."));
    try (Stream<Path> s =
        Files.walk(root.resolve("deploy/fixtures/eventlogs/spark-3.5.7/healthy-plain"))) {
      return s.filter(Files::isRegularFile).findFirst().orElseThrow();
    }
  }

  private int exec(String... args) {
    CommandLine cli = SluiceCli.commandLine();
    cli.setErr(new PrintWriter(new StringWriter()));
    return cli.execute(args);
  }

  @Test
  void backfillPublishesEveryLineOnceAndARerunPublishesNothing() throws IOException {
    Path log = healthyPlainFixture();
    long lines;
    try (Stream<String> s = Files.lines(log)) {
      lines = s.filter(l -> !l.isBlank()).count();
    }
    Path offsets = tmp.resolve("offsets.json");
    String[] args = {
      "collect",
      "--bootstrap",
      KAFKA.bootstrapServers(),
      "--cluster",
      "itc",
      "--offsets",
      offsets.toString(),
      "--no-progress",
      log.toString()
    };
    assertThat(exec(args)).isZero();
    assertThat(exec(args)).isZero();

    Set<Long> seqs = new HashSet<>();
    long events = 0;
    try (KafkaConsumer<String, byte[]> consumer =
        new KafkaConsumer<>(
            Map.of(
                "bootstrap.servers",
                KAFKA.bootstrapServers(),
                "group.id",
                "collect-itc",
                "auto.offset.reset",
                "earliest"),
            new StringDeserializer(),
            new ByteArrayDeserializer())) {
      consumer.subscribe(List.of("sluice.spark-events"));
      long deadline = System.currentTimeMillis() + 30_000;
      while (events < lines && System.currentTimeMillis() < deadline) {
        for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(500))) {
          EnvelopeCodec.Events record = EnvelopeCodec.decodeRecord(r.value());
          assertThat(record.cluster()).isEqualTo("itc");
          assertThat(record.appId()).isEqualTo(r.key());
          for (int i = 0; i < record.events().size(); i++) {
            seqs.add(record.firstSeq() + i);
            events++;
          }
        }
      }
      // Nothing more arrives: the second run published nothing.
      assertThat(consumer.poll(Duration.ofSeconds(2)).count()).isZero();
    }
    assertThat(events).isEqualTo(lines);
    assertThat(seqs).hasSize((int) lines);
  }
}
