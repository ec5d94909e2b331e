package io.sluice.collect;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.TimeoutException;
import org.junit.jupiter.api.Test;

class LineLedgerTest {

  @Test
  void theFrontierMovesOverContiguouslyDoneLinesOnly() {
    LineLedger l = new LineLedger("log", 10, new AtomicLong());
    l.acked(11);
    assertThat(l.frontier()).isEqualTo(10);
    l.acked(10);
    assertThat(l.frontier()).isEqualTo(12);
    l.pass(12);
    l.acked(9); // before the start: already saved
    assertThat(l.frontier()).isEqualTo(13);
    assertThat(l.failure()).isNull();
  }

  @Test
  void aTooLargeLineIsSkippedAndCountedOtherFailuresStopTheFrontier() {
    AtomicLong skipped = new AtomicLong();
    LineLedger l = new LineLedger("log", 0, skipped);
    l.acked(0);
    l.failed(1, new RecordTooLargeException("too large"));
    l.acked(2);
    TimeoutException expired = new TimeoutException("expired");
    l.failed(3, expired);
    l.acked(4);
    l.failed(5, new TimeoutException("later"));
    assertThat(skipped.get()).isEqualTo(1);
    assertThat(l.frontier()).isEqualTo(3);
    assertThat(l.failure()).isSameAs(expired);
  }

  @Test
  void aBatchCountsForEachOfItsLines() {
    AtomicLong skipped = new AtomicLong();
    LineLedger l = new LineLedger("log", 0, skipped);
    l.lines(3, 5).acked(3);
    assertThat(l.frontier()).as("lines 0..2 still open").isZero();
    l.lines(0, 2).acked(0);
    assertThat(l.frontier()).isEqualTo(6);
    l.lines(6, 9).failed(6, new RecordTooLargeException("too large"));
    assertThat(skipped.get()).isEqualTo(4);
    assertThat(l.frontier()).isEqualTo(10);
    TimeoutException expired = new TimeoutException("expired");
    l.lines(10, 12).failed(10, expired);
    l.lines(13, 14).acked(13);
    assertThat(l.frontier()).isEqualTo(10);
    assertThat(l.failure()).isSameAs(expired);
  }

  @Test
  void aRefusedBatchOfSeveralLinesWaitsToBeSentInPiecesAOneLineBatchIsSkipped() {
    AtomicLong skipped = new AtomicLong();
    LineLedger l = new LineLedger("log", 0, skipped);
    io.sluice.ingest.envelope.EnvelopeBatch three =
        new io.sluice.ingest.envelope.EnvelopeBatch("c", "app", "1", 10, 1_000)
            .piece(0, java.util.List.of("{}".getBytes(), "{}".getBytes(), "{}".getBytes()));
    byte[] key = "app".getBytes();
    l.batch(key, three).failed(0, new RecordTooLargeException("too large"));
    assertThat(skipped.get()).as("nothing skipped yet").isZero();
    assertThat(l.frontier()).isZero();
    java.util.List<LineLedger.Refused> refused = l.takeRefused();
    assertThat(refused).singleElement().satisfies(r -> assertThat(r.batch()).isSameAs(three));
    assertThat(l.takeRefused()).as("taken once").isEmpty();

    l.batch(key, three.piece(0, java.util.List.of("{}".getBytes())))
        .failed(0, new RecordTooLargeException("x"));
    l.batch(key, three.piece(1, java.util.List.of("{}".getBytes(), "{}".getBytes()))).acked(1);
    assertThat(skipped.get()).as("the one line too large alone").isEqualTo(1);
    assertThat(l.frontier()).isEqualTo(3);
    assertThat(l.takeRefused()).isEmpty();
  }
}
