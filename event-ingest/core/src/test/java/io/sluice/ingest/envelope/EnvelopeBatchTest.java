package io.sluice.ingest.envelope;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.contracts.kafka.EventEnvelope;
import io.sluice.ingest.Fixtures;
import io.sluice.ingest.eventlog.EventLogSource;
import io.sluice.ingest.eventlog.LineReader;
import io.sluice.ingest.eventlog.ReadReport;
import io.sluice.ingest.fold.AppFolder;
import io.sluice.ingest.fold.EventLogFolding;
import io.sluice.ingest.parse.EventPruner;
import io.sluice.ingest.parse.SparkEvent;
import io.sluice.model.AppRun;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class EnvelopeBatchTest {

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void encodesConsecutiveEventsBehindOneHeader() {
    EnvelopeBatch batch = new EnvelopeBatch("prod", "app-\"1\"", "2", 10, 1000);
    assertThat(batch.add(7, b("{\"Event\":\"X\"}"))).isTrue();
    assertThat(batch.add(8, b("{\"Event\":\"SparkListenerApplicationEnd\",\"Timestamp\":5}")))
        .isTrue();
    assertThat(new String(batch.encode(9), StandardCharsets.UTF_8))
        .isEqualTo(
            "{\"v\":2,\"cluster\":\"prod\",\"appId\":\"app-\\\"1\\\"\",\"appAttemptId\":\"2\",\"seq\":7,\"emittedAt\":9,"
                + "\"events\":[{\"Event\":\"X\"},{\"Event\":\"SparkListenerApplicationEnd\",\"Timestamp\":5}]}");
    EnvelopeCodec.Events d = EnvelopeCodec.decodeRecord(batch.encode(9));
    assertThat(d)
        .isEqualTo(
            new EnvelopeCodec.Events(
                "prod",
                "app-\"1\"",
                "2",
                7,
                9,
                List.of(new SparkEvent.Unknown("X"), new SparkEvent.ApplicationEnd(5, null))));
    assertThat(batch.firstSeq()).isEqualTo(7);
    assertThat(batch.lastSeq()).isEqualTo(8);
  }

  @Test
  void refusesAGapAndEveryBoundButTakesOneOversizedEventAlone() {
    EnvelopeBatch batch = new EnvelopeBatch("c", "a", "", 3, 30);
    byte[] ten = b("{\"E\":\"12\"}");
    assertThat(ten).hasSize(10);
    assertThat(batch.add(1, ten)).isTrue();
    assertThat(batch.add(3, ten)).as("seq 2 missing").isFalse();
    assertThat(batch.add(2, ten)).isTrue();
    assertThat(batch.add(3, ten)).isTrue();
    assertThat(batch.add(4, ten)).as("three events at most").isFalse();
    assertThat(batch.size()).isEqualTo(3);
    batch.clear();
    assertThat(batch.isEmpty()).isTrue();
    assertThat(batch.add(4, ten)).isTrue();
    assertThat(batch.add(5, b("{\"E\":\"1234567890123\"}"))).as("10 + 21 bytes > 30").isFalse();
    batch.clear();
    byte[] big = b("{\"E\":\"" + "x".repeat(100) + "\"}");
    assertThat(batch.add(5, big)).as("an event larger than the bound goes alone").isTrue();
    assertThat(batch.add(6, ten)).isFalse();
    assertThatThrownBy(() -> new EnvelopeBatch("c", "a", "", 0, 1))
        .hasMessageContaining("maxEvents 0");
    assertThatThrownBy(() -> new EnvelopeBatch("c", "", "", 1, 1))
        .hasMessageContaining("needs an appId");
    assertThatThrownBy(() -> new EnvelopeBatch("c", "a", "", 1, 1).encode(1))
        .hasMessageContaining("empty batch");
  }

  @Test
  void todaysSingleEventEnvelopesReadAsRecordsOfOneEvent() {
    byte[] v1 =
        EnvelopeCodec.encode(
            new EventEnvelope(
                "c",
                "a",
                "1",
                41,
                3,
                "{\"Event\":\"SparkListenerApplicationEnd\",\"Timestamp\":5}"));
    assertThat(EnvelopeCodec.decodeRecord(v1))
        .isEqualTo(
            new EnvelopeCodec.Events(
                "c", "a", "1", 41, 3, List.of(new SparkEvent.ApplicationEnd(5, null))));
    byte[] explicitV1 = b("{\"v\":1,\"appId\":\"a\",\"seq\":2,\"event\":{\"Event\":\"X\"}}");
    assertThat(EnvelopeCodec.decodeRecord(explicitV1).events())
        .containsExactly(new SparkEvent.Unknown("X"));
    EnvelopeBatch one = new EnvelopeBatch("c", "a", "", 5, 100);
    one.add(3, b("{\"Event\":\"X\"}"));
    assertThat(EnvelopeCodec.decode(one.encode(1)))
        .isEqualTo(new EnvelopeCodec.Decoded("c", "a", "", 3, 1, new SparkEvent.Unknown("X")));
  }

  @Test
  void malformedBatchesAreRejectedClearly() {
    assertBad("{\"v\":3,\"appId\":\"a\",\"seq\":1,\"events\":[{\"Event\":\"X\"}]}", "has format 3");
    assertBad("{\"v\":2,\"appId\":\"a\",\"seq\":1,\"events\":[]}", "needs a non-empty \"events\"");
    assertBad(
        "{\"v\":2,\"appId\":\"a\",\"seq\":1,\"event\":{\"Event\":\"X\"}}",
        "needs a non-empty \"events\"");
    assertBad(
        "{\"appId\":\"a\",\"seq\":1,\"event\":{\"Event\":\"X\"},\"events\":[{\"Event\":\"X\"}]}",
        "has \"events\" but no \"v\":2");
    assertBad(
        "{\"v\":2,\"appId\":\"a\",\"seq\":1,\"events\":{\"Event\":\"X\"}}", "expected an array");
    assertBad(
        "{\"v\":2,\"appId\":\"a\",\"seq\":1,\"events\":[{\"Event\":\"X\"},7]}", "batch event 1 is");
    assertBad(
        "{\"v\":2,\"appId\":\"a\",\"seq\":1,\"events\":[{\"Event\":\"X\"},{\"no\":1}]}",
        "event is malformed");
    assertBad(
        "{\"v\":\"2\",\"appId\":\"a\",\"seq\":1,\"events\":[{\"Event\":\"X\"}]}",
        "v is not a long");
    assertThatThrownBy(
            () ->
                EnvelopeCodec.decode(
                    b(
                        "{\"v\":2,\"appId\":\"a\",\"seq\":1,\"events\":[{\"Event\":\"X\"},{\"Event\":\"Y\"}]}")))
        .isInstanceOf(MalformedEnvelopeException.class)
        .hasMessageContaining("a batch of 2 events of a");
  }

  /**
   * Every fixture log published as the collector does (lines pruned, batched) and folded from the
   * decoded records gives exactly the run folded from the log itself.
   */
  @Test
  void prunedBatchesOfEveryFixtureFoldToTheSameRunAsTheLog() throws IOException {
    List<EventLogSource> sources = Fixtures.sources();
    int checked = 0;
    long allWhole = 0;
    long allPruned = 0;
    for (EventLogSource source : sources) {
      ReadReport report = new ReadReport();
      AppFolder expected = EventLogFolding.fold(source, "c", report).orElse(null);
      if (expected == null) {
        continue;
      }
      List<byte[]> records = new ArrayList<>();
      long lines = 0;
      long wholeBytes = 0;
      long prunedBytes = 0;
      EnvelopeBatch batch = new EnvelopeBatch("c", "app", "", 37, 64 * 1024);
      try (LineReader r = source.open(0)) {
        for (byte[] line = r.next(); line != null; line = r.next()) {
          long seq = r.linesRead() - 1;
          lines++;
          byte[] event = EventPruner.prune(line);
          if (event == null) {
            continue;
          }
          wholeBytes += line.length;
          prunedBytes += event.length;
          if (!batch.add(seq, event)) {
            records.add(batch.encode(1));
            batch.clear();
            assertThat(batch.add(seq, event)).isTrue();
          }
        }
      }
      if (!batch.isEmpty()) {
        records.add(batch.encode(1));
      }
      AppFolder folded = new AppFolder("c");
      folded.fallbackAppId(source.name());
      long next = 0;
      for (byte[] record : records) {
        EnvelopeCodec.Events d = EnvelopeCodec.decodeRecord(record);
        assertThat(d.firstSeq()).as("records follow each other").isGreaterThanOrEqualTo(next);
        next = d.firstSeq() + d.events().size();
        d.events().forEach(folded::accept);
      }
      assertThat(next).isEqualTo(lines);
      AppRun want = expected.toAppRun(0);
      assertThat(folded.toAppRun(0)).as(source.name()).isEqualTo(want);
      allWhole += wholeBytes;
      allPruned += prunedBytes;
      checked++;
    }
    assertThat(checked).isGreaterThanOrEqualTo(10);
    assertThat(allPruned).as("pruned bytes of all fixtures").isLessThan(allWhole / 2);
  }

  private static void assertBad(String json, String message) {
    assertThatThrownBy(() -> EnvelopeCodec.decodeRecord(b(json)))
        .isInstanceOf(MalformedEnvelopeException.class)
        .hasMessageContaining(message);
  }
}
