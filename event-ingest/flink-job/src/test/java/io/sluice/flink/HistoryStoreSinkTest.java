package io.sluice.flink;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.model.AppRun;
import io.sluice.store.HistoryStore;
import io.sluice.store.HistoryStoreException;
import io.sluice.store.HistoryStores;
import java.sql.SQLException;
import java.sql.SQLSyntaxErrorException;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.flink.metrics.SimpleCounter;
import org.apache.flink.streaming.runtime.tasks.TestProcessingTimeService;
import org.junit.jupiter.api.Test;

class HistoryStoreSinkTest {
  @Test
  void onlyDataErrorsOfTheRunItselfMakeItADeadLetter() {
    assertThat(
            HistoryStoreSink.Writer.aboutThisRun(
                new HistoryStoreException(
                    "upsert failed",
                    new SQLException("Value too long for column \"APP_ID\"", "22001"))))
        .isTrue();
    assertThat(
            HistoryStoreSink.Writer.aboutThisRun(
                new HistoryStoreException("upsert failed", new SQLException("unique", "23505"))))
        .isTrue();
    assertThat(
            HistoryStoreSink.Writer.aboutThisRun(
                new HistoryStoreException(
                    "upsert failed", new IllegalArgumentException("run without appId"))))
        .isTrue();
    assertThat(
            HistoryStoreSink.Writer.aboutThisRun(
                new HistoryStoreException(
                    "upsert failed",
                    new SQLSyntaxErrorException("Column \"KILLED_TASKS\" not found", "42122"))))
        .isFalse();
    assertThat(
            HistoryStoreSink.Writer.aboutThisRun(
                new HistoryStoreException(
                    "upsert failed", new SQLException("Connection is broken", "08006"))))
        .isFalse();
    assertThat(
            HistoryStoreSink.Writer.aboutThisRun(
                new HistoryStoreException("no SQL state", new SQLException("?"))))
        .isFalse();
  }

  @Test
  void aBufferedRunIsUpsertedOneFlushIntervalAfterItArrived() throws Exception {
    TestProcessingTimeService time = new TestProcessingTimeService();
    time.setCurrentTime(10_000);
    HistoryStore store = HistoryStores.open("jdbc:h2:mem:flush-interval");
    SimpleCounter stored = new SimpleCounter();
    SimpleCounter batches = new SimpleCounter();
    try (HistoryStoreSink.Writer writer = writer(store, 1_000, time, stored, batches)) {
      writer.write(run("app-1"), null);
      time.setCurrentTime(10_500);
      writer.write(run("app-2"), null); // joins the pending flush
      time.setCurrentTime(10_999);
      assertThat(store.countRuns()).isZero();
      time.setCurrentTime(11_000);
      assertThat(store.countRuns()).isEqualTo(2);
      assertThat(batches.getCount()).isEqualTo(1);
      writer.write(run("app-3"), null); // an empty buffer again: a new timer
      time.setCurrentTime(11_999);
      assertThat(store.countRuns()).isEqualTo(2);
      time.setCurrentTime(12_000);
      assertThat(store.countRuns()).isEqualTo(3);
      assertThat(stored.getCount()).isEqualTo(3);
      assertThat(time.getNumActiveTimers()).isZero();
    }
  }

  @Test
  void withoutAnIntervalRunsWaitForTheBatchOrTheCheckpoint() throws Exception {
    TestProcessingTimeService time = new TestProcessingTimeService();
    HistoryStore store = HistoryStores.open("jdbc:h2:mem:no-interval");
    try (HistoryStoreSink.Writer writer =
        writer(store, 0, time, new SimpleCounter(), new SimpleCounter())) {
      writer.write(run("app-1"), null);
      time.setCurrentTime(3_600_000);
      assertThat(time.getNumActiveTimers()).isZero();
      assertThat(store.countRuns()).isZero();
      writer.flush(false);
      assertThat(store.countRuns()).isEqualTo(1);
    }
  }

  private static HistoryStoreSink.Writer writer(
      HistoryStore store,
      long intervalMs,
      TestProcessingTimeService time,
      SimpleCounter stored,
      SimpleCounter batches) {
    Properties kafka = new Properties();
    kafka.put("bootstrap.servers", "127.0.0.1:9"); // the dead-letter producer: never used here
    return new HistoryStoreSink.Writer(
        store,
        100,
        intervalMs,
        time,
        stored,
        batches,
        new SimpleCounter(),
        new DeadLetterProducer(kafka, "dead-letters"));
  }

  private static RunUpdate run(String appId) {
    return RunUpdate.of(
        new AppRun(
            "c",
            appId,
            "",
            "job",
            "name",
            "user",
            "q",
            null,
            1,
            2,
            "SUCCEEDED",
            "3.5.7",
            Map.of(),
            Map.of(),
            List.of(),
            List.of(),
            2));
  }
}
