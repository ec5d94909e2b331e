package io.sluice.flink;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.store.HistoryStoreException;
import java.sql.SQLException;
import java.sql.SQLSyntaxErrorException;
import org.junit.jupiter.api.Test;

class HistoryStoreSinkTest {
  @Test
  void onlyDataErrorsOfTheRunItselfMakeItADeadLetter() {
    assertThat(HistoryStoreSink.Writer.aboutThisRun(new HistoryStoreException("upsert failed",
        new SQLException("Value too long for column \"APP_ID\"", "22001")))).isTrue();
    assertThat(HistoryStoreSink.Writer.aboutThisRun(new HistoryStoreException("upsert failed",
        new SQLException("unique", "23505")))).isTrue();
    assertThat(HistoryStoreSink.Writer.aboutThisRun(new HistoryStoreException("upsert failed",
        new IllegalArgumentException("run without appId")))).isTrue();
    assertThat(HistoryStoreSink.Writer.aboutThisRun(new HistoryStoreException("upsert failed",
        new SQLSyntaxErrorException("Column \"KILLED_TASKS\" not found", "42122")))).isFalse();
    assertThat(HistoryStoreSink.Writer.aboutThisRun(new HistoryStoreException("upsert failed",
        new SQLException("Connection is broken", "08006")))).isFalse();
    assertThat(HistoryStoreSink.Writer.aboutThisRun(new HistoryStoreException("no SQL state",
        new SQLException("?")))).isFalse();
  }
}
