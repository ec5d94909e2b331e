package io.sluice.ingest.parse;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class EventPrunerTest {

  private static String prune(String line) {
    byte[] out = EventPruner.prune(line.getBytes(StandardCharsets.UTF_8));
    return out == null ? null : new String(out, StandardCharsets.UTF_8);
  }

  @Test
  void aTaskEndKeepsExactlyWhatTheProfileReads() throws Exception {
    String line =
        "{\"Event\":\"SparkListenerTaskEnd\",\"Stage ID\":3,\"Stage Attempt ID\":0,\"Task Type\":\"ResultTask\","
            + "\"Task End Reason\":{\"Reason\":\"Success\"},"
            + "\"Task Info\":{\"Task ID\":12,\"Index\":2,\"Attempt\":0,\"Partition ID\":2,\"Launch Time\":100,"
            + "\"Executor ID\":\"1\",\"Finish Time\":180,\"Accumulables\":[{\"ID\":1,\"Name\":\"x\",\"Update\":5}]},"
            + "\"Task Executor Metrics\":{\"JVMHeapMemory\":1},"
            + "\"Task Metrics\":{\"Executor Deserialize Time\":4,\"Executor Run Time\":70,\"Memory Bytes Spilled\":0,"
            + "\"Disk Bytes Spilled\":0,\"Shuffle Read Metrics\":{\"Remote Blocks Fetched\":5,\"Local Blocks Fetched\":1,"
            + "\"Fetch Wait Time\":3,\"Remote Bytes Read\":500,\"Remote Bytes Read To Disk\":0,\"Local Bytes Read\":100,"
            + "\"Total Records Read\":9},\"Shuffle Write Metrics\":{\"Shuffle Bytes Written\":0,\"Shuffle Write Time\":0,"
            + "\"Shuffle Records Written\":0},\"Updated Blocks\":[]}}";
    String pruned = prune("  " + line + "\r\n");
    assertThat(pruned)
        .isEqualTo(
            "{\"Event\":\"SparkListenerTaskEnd\",\"Stage ID\":3,\"Stage Attempt ID\":0,"
                + "\"Task End Reason\":{\"Reason\":\"Success\"},"
                + "\"Task Info\":{\"Task ID\":12,\"Index\":2,\"Attempt\":0,\"Launch Time\":100,\"Finish Time\":180},"
                + "\"Task Metrics\":{\"Executor Run Time\":70,\"Memory Bytes Spilled\":0,"
                + "\"Disk Bytes Spilled\":0,\"Shuffle Read Metrics\":{\"Remote Blocks Fetched\":5,\"Local Blocks Fetched\":1,"
                + "\"Fetch Wait Time\":3,\"Remote Bytes Read\":500,\"Local Bytes Read\":100,"
                + "\"Total Records Read\":9},\"Shuffle Write Metrics\":{\"Shuffle Bytes Written\":0,\"Shuffle Write Time\":0,"
                + "\"Shuffle Records Written\":0}}}");
    SparkEventParser parser = new SparkEventParser();
    assertThat(parser.parse(pruned.getBytes(StandardCharsets.UTF_8)))
        .isEqualTo(parser.parse(line.getBytes(StandardCharsets.UTF_8)));
  }

  @Test
  void otherEventsKeepWhatIsFoldedAndNonObjectsAreRefused() {
    assertThat(
            prune(
                "{\"Event\":\"SparkListenerTaskStart\",\"Stage ID\":1,\"Task Info\":{\"Accumulables\":[]}}"))
        .as("not folded: its name only")
        .isEqualTo("{\"Event\":\"SparkListenerTaskStart\"}");
    assertThat(
            prune(
                "{\"Event\":\"SparkListenerEnvironmentUpdate\",\"JVM Information\":{\"a\":\"b\"},"
                    + "\"Spark Properties\":{\"spark.app.name\":\"x\"},\"Classpath Entries\":{\"/a.jar\":\"System\"}}"))
        .isEqualTo(
            "{\"Event\":\"SparkListenerEnvironmentUpdate\",\"Spark Properties\":{\"spark.app.name\":\"x\"}}");
    assertThat(
            prune(
                "{\"Event\":\"SparkListenerStageSubmitted\",\"Stage Info\":{\"Stage ID\":2,\"Accumulables\":[]},"
                    + "\"Properties\":{\"spark.job.description\":\"long\"}}"))
        .isEqualTo(
            "{\"Event\":\"SparkListenerStageSubmitted\",\"Stage Info\":{\"Stage ID\":2,\"Accumulables\":[]}}");
    assertThat(prune("{\"Event\":\"SparkListenerApplicationEnd\",\"Timestamp\":5}"))
        .as("small events the profile reads whole")
        .isEqualTo("{\"Event\":\"SparkListenerApplicationEnd\",\"Timestamp\":5}");
    assertThat(prune("{\"Stage ID\":1,\"Event\":\"SparkListenerTaskStart\"}"))
        .as("name not first: as it is")
        .isEqualTo("{\"Stage ID\":1,\"Event\":\"SparkListenerTaskStart\"}");
    assertThat(prune(" {\"a\":1} ")).isEqualTo("{\"a\":1}");
    // beyond the scan's stricter limits (a 600-digit number) Jackson decides: still one object
    String longNumber = "{\"Event\":\"X\",\"n\":" + "1".repeat(600) + "}";
    assertThat(prune(longNumber)).isEqualTo(longNumber);
    assertThat(prune("{\"Event\":\"SparkListenerTaskEnd\",\"Stage ID\":")).isNull();
    assertThat(prune("[1,2]")).isNull();
    assertThat(prune("not json")).isNull();
    assertThat(prune("{\"a\":1} {\"b\":2}")).isNull();
    assertThat(prune("")).isNull();
  }
}
