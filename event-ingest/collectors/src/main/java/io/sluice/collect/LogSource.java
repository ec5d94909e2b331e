package io.sluice.collect;

import java.io.IOException;

import io.sluice.ingest.eventlog.EventLogSource;
import io.sluice.ingest.eventlog.LineReader;

/** One application attempt's event log, wherever it lives (local disk or a Hadoop file system). */
interface LogSource {

    /** The log's name without codec or {@code .inprogress} suffix (Spark's appId[_attemptId]). */
    String name();

    boolean inProgress();

    /** Lines after the first {@code skipLines}; see {@link LineReader#linesRead()}. */
    LineReader open(long skipLines) throws IOException;

    /** A local log found by event-core's {@code EventLogs.discover}. */
    static LogSource local(EventLogSource s) {
        return new LogSource() {
            @Override
            public String name() {
                return s.name();
            }

            @Override
            public boolean inProgress() {
                return s.inProgress();
            }

            @Override
            public LineReader open(long skipLines) throws IOException {
                return s.open(skipLines);
            }

            @Override
            public String toString() {
                return s.toString();
            }
        };
    }
}
