package io.sluice.flink;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.contracts.kafka.EventEnvelope;
import io.sluice.ingest.envelope.EnvelopeBatch;
import io.sluice.ingest.envelope.EnvelopeCodec;
import io.sluice.ingest.eventlog.EventLogSource;
import io.sluice.ingest.eventlog.EventLogs;
import io.sluice.ingest.eventlog.LineReader;
import io.sluice.ingest.eventlog.ReadReport;
import io.sluice.ingest.fold.AppFolder;
import io.sluice.ingest.fold.EventLogFolding;
import io.sluice.ingest.parse.EventPruner;
import io.sluice.ingest.yarn.YarnAppRecord;
import io.sluice.model.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;

/**
 * Real Spark event logs (deploy/fixtures/eventlogs, written by running Spark) turned into the
 * envelopes a collector would publish, and the folds they must produce.
 */
final class TestLogs {
  static final String CLUSTER = "test-cluster";
  static final String SPARK = "spark-3.5.7";

  private TestLogs() {}

  static Path repoRoot() {
    String prop = System.getProperty("sluice.root");
    if (prop != null && !prop.isBlank() && Files.isDirectory(Paths.get(prop, "deploy"))) {
      return Paths.get(prop).toAbsolutePath().normalize();
    }
    for (Path p = Paths.get("").toAbsolutePath(); p != null; p = p.getParent()) {
      if (Files.exists(p.resolve(".git"))) {
        return p;
      }
    }
    throw new IllegalStateException("cannot find the repository root");
  }

  /** One fixture log by its fixture name (e.g. healthy-plain); fails when it is missing. */
  static EventLogSource fixture(String name) {
    Path dir = repoRoot().resolve("deploy/fixtures/eventlogs").resolve(SPARK).resolve(name);
    assertThat(dir).as("fixture event log directory").isDirectory();
    List<EventLogSource> sources = EventLogs.discover(List.of(dir), new ReadReport());
    assertThat(sources).as("event logs in " + dir).hasSize(1);
    return sources.get(0);
  }

  /** A finished log with a few stages, small enough for unit tests. */
  static EventLogSource small() {
    return fixture("healthy-plain");
  }

  static String appId(EventLogSource source) {
    return source.name();
  }

  /** Every complete line of the log. */
  static List<String> lines(EventLogSource source) {
    List<String> out = new ArrayList<>();
    try (LineReader r = source.open(0)) {
      for (byte[] line = r.next(); line != null; line = r.next()) {
        String s = new String(line, StandardCharsets.UTF_8).strip();
        if (!s.isEmpty()) {
          out.add(s);
        }
      }
    } catch (IOException e) {
      throw new IllegalStateException("cannot read " + source.files(), e);
    }
    assertThat(out).as("lines of " + source.files()).isNotEmpty();
    return out;
  }

  /** The log as envelopes, seq = line number (from 1), emittedAt = a deterministic fake clock. */
  static List<byte[]> envelopes(EventLogSource source) {
    List<String> lines = lines(source);
    List<byte[]> out = new ArrayList<>(lines.size());
    for (int i = 0; i < lines.size(); i++) {
      out.add(
          EnvelopeCodec.encode(
              new EventEnvelope(CLUSTER, appId(source), "", i + 1, 1_000L + i, lines.get(i))));
    }
    return out;
  }

  /**
   * The log's lines as the event-log collector publishes them: pruned, in batches of at most {@code
   * maxEvents}, line i with seq i + 1 as in {@link #envelopes}.
   */
  static List<byte[]> batches(EventLogSource source, int maxEvents) {
    List<String> lines = lines(source);
    List<byte[]> out = new ArrayList<>();
    EnvelopeBatch batch =
        new EnvelopeBatch(CLUSTER, appId(source), "", maxEvents, EnvelopeBatch.DEFAULT_MAX_BYTES);
    for (int i = 0; i < lines.size(); i++) {
      byte[] event = EventPruner.prune(lines.get(i).getBytes(StandardCharsets.UTF_8));
      if (!batch.add(i + 1, event)) {
        out.add(batch.encode(1_000L + batch.firstSeq()));
        batch.clear();
        batch.add(i + 1, event);
      }
    }
    out.add(batch.encode(1_000L + batch.firstSeq()));
    return out;
  }

  /** What folding the log directly produces: the reference for the job's output. */
  static AppFolder directFold(EventLogSource source) {
    return EventLogFolding.fold(source, CLUSTER, new ReadReport()).orElseThrow();
  }

  static YarnAppRecord yarn(
      String appId,
      String queue,
      Integer priority,
      String state,
      String finalStatus,
      long observedAt) {
    return new YarnAppRecord(
        CLUSTER,
        appId,
        "sluice-fixture",
        "yarn-user",
        queue,
        priority,
        "SPARK",
        List.of("sluice"),
        state,
        finalStatus,
        1_000L,
        "FINISHED".equals(state) ? observedAt - 5 : 0L,
        1,
        12_345L,
        678L,
        observedAt);
  }

  static byte[] json(YarnAppRecord record) {
    return Json.write(record).getBytes(StandardCharsets.UTF_8);
  }
}
