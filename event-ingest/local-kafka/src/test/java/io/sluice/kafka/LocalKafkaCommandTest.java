package io.sluice.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class LocalKafkaCommandTest {
  @Test
  void optionsBindToTheBrokerSettings() {
    LocalKafkaCommand c = new LocalKafkaCommand();
    new CommandLine(c)
        .parseArgs(
            "--port", "19092", "--log-dir", "/tmp/k", "--topics", "a,b", "--partitions", "3");
    assertThat(c.port).isEqualTo(19092);
    assertThat(c.logDir).isEqualTo(Path.of("/tmp/k"));
    assertThat(c.topics).containsExactly("a", "b");
    assertThat(c.partitions).isEqualTo(3);
  }

  @Test
  void defaultsAreAFreePortAndOnePartition() {
    LocalKafkaCommand c = new LocalKafkaCommand();
    new CommandLine(c).parseArgs();
    assertThat(c.port).isZero();
    assertThat(c.logDir).isNull();
    assertThat(c.topics).isEqualTo(List.of());
    assertThat(c.partitions).isEqualTo(1);
  }

  @Test
  void anUnknownOptionIsAUsageErrorNamingIt() {
    StringWriter err = new StringWriter();
    int rc =
        new CommandLine(new LocalKafkaCommand())
            .setErr(new PrintWriter(err))
            .execute("--prot", "1");
    assertThat(rc).isEqualTo(2);
    assertThat(err.toString())
        .contains("Unknown options: '--prot', '1'")
        .contains("Usage: LocalKafka");
  }
}
