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
}
