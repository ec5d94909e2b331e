package io.sluice.ingest.eventlog;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.luben.zstd.ZstdOutputStream;
import com.ning.compress.lzf.LZFOutputStream;
import io.sluice.ingest.Fixtures;
import io.sluice.ingest.parse.MalformedEventException;
import io.sluice.ingest.parse.SparkEventParser;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import net.jpountz.lz4.LZ4BlockOutputStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.xerial.snappy.SnappyOutputStream;

class EventLogReadingTest {
  @TempDir Path tmp;
  private ReadReport report;
  private List<String> realLines;
  private byte[] realBytes;

  @BeforeEach
  void load() throws IOException {
    report = new ReadReport();
    realBytes = Files.readAllBytes(Fixtures.plainLog());
    realLines = Arrays.asList(new String(realBytes, StandardCharsets.UTF_8).split("\n"));
  }

  private static List<String> readAll(EventLogSource source, long skip) throws IOException {
    List<String> out = new ArrayList<>();
    try (LineReader r = source.open(skip)) {
      for (byte[] l = r.next(); l != null; l = r.next()) {
        out.add(new String(l, StandardCharsets.UTF_8));
      }
    }
    return out;
  }

  private EventLogSource only(Path... paths) {
    List<EventLogSource> s = EventLogs.discover(List.of(paths), report);
    assertThat(s).hasSize(1);
    return s.get(0);
  }

  @Test
  void plainLogIsReadLineByLine() throws IOException {
    Path f = Files.write(tmp.resolve("app-1"), realBytes);
    EventLogSource s = only(f);
    assertThat(s.name()).isEqualTo("app-1");
    assertThat(s.inProgress()).isFalse();
    assertThat(readAll(s, 0)).isEqualTo(realLines);
    assertThat(report.lines()).isEqualTo(realLines.size());
    assertThat(report.filesRead()).isEqualTo(1);
  }

  interface Compressor {
    OutputStream wrap(OutputStream out) throws IOException;
  }

  private Path compressed(String name, Compressor c, byte[] data) throws IOException {
    Path f = tmp.resolve(name);
    try (OutputStream out = c.wrap(Files.newOutputStream(f))) {
      out.write(data);
    }
    return f;
  }

  @Test
  void everySparkCodecIsReadWithItsOwnFraming() throws IOException {
    List<Path> files =
        List.of(
            compressed("local-1.lz4", out -> new LZ4BlockOutputStream(out, 32 * 1024), realBytes),
            compressed("local-2.lzf", LZFOutputStream::new, realBytes),
            compressed("local-3.snappy", out -> new SnappyOutputStream(out, 32 * 1024), realBytes),
            compressed("local-4.zstd", ZstdOutputStream::new, realBytes),
            // named without its codec: recognised by its magic bytes
            compressed("local-5", ZstdOutputStream::new, realBytes));
    List<EventLogSource> sources = EventLogs.discover(files, report);
    assertThat(sources)
        .extracting(EventLogSource::name)
        .containsExactly("local-1", "local-2", "local-3", "local-4", "local-5");
    for (EventLogSource s : sources) {
      assertThat(readAll(s, 0)).as(s.name()).isEqualTo(realLines);
    }
    assertThat(report.corruptBlocks()).isZero();
    assertThat(report.malformedLines()).isZero();
  }

  @Test
  void rollingDirectoryPartsAreReadInIndexOrder() throws IOException {
    Path dir = Files.createDirectories(tmp.resolve("logs/eventlog_v2_app-42"));
    int third = realLines.size() / 3;
    List<List<String>> parts =
        List.of(
            realLines.subList(0, third),
            realLines.subList(third, 2 * third),
            realLines.subList(2 * third, realLines.size()));
    int[] idx = {2, 9, 10}; // numeric, not lexical, order
    for (int i = 0; i < 3; i++) {
      byte[] data = (String.join("\n", parts.get(i)) + "\n").getBytes(StandardCharsets.UTF_8);
      compressed(
          "logs/eventlog_v2_app-42/events_" + idx[i] + "_app-42.zstd", ZstdOutputStream::new, data);
    }
    Files.createFile(dir.resolve("appstatus_app-42.inprogress"));
    Files.createFile(dir.resolve(".events_2_app-42.zstd.crc"));
    EventLogSource s = only(tmp.resolve("logs"));
    assertThat(s.name()).isEqualTo("app-42");
    assertThat(s.inProgress()).isTrue();
    assertThat(s.files())
        .extracting(p -> p.getFileName().toString())
        .containsExactly("events_2_app-42.zstd", "events_9_app-42.zstd", "events_10_app-42.zstd");
    assertThat(readAll(s, 0)).isEqualTo(realLines);
    // resuming across parts
    assertThat(readAll(s, third + 5)).isEqualTo(realLines.subList(third + 5, realLines.size()));
    Files.move(dir.resolve("appstatus_app-42.inprogress"), dir.resolve("appstatus_app-42"));
    assertThat(only(dir).inProgress()).isFalse();
  }

  @Test
  void truncatedLastLineIsReportedNotReturned() throws IOException {
    int cut = realBytes.length - 40; // inside the last line
    Path f = Files.write(tmp.resolve("app-2.inprogress"), Arrays.copyOf(realBytes, cut));
    EventLogSource s = only(f);
    assertThat(s.inProgress()).isTrue();
    assertThat(s.name()).isEqualTo("app-2");
    List<String> lines;
    long read;
    try (LineReader r = s.open(0)) {
      lines = new ArrayList<>();
      for (byte[] l = r.next(); l != null; l = r.next()) {
        lines.add(new String(l, StandardCharsets.UTF_8));
      }
      read = r.linesRead();
    }
    assertThat(lines).isEqualTo(realLines.subList(0, realLines.size() - 1));
    assertThat(read).isEqualTo(realLines.size() - 1);
    assertThat(report.malformedLines(MalformedEventException.Kind.TRUNCATED)).isEqualTo(1);
  }

  @Test
  void completeLastLineWithoutNewlineIsReturned() throws IOException {
    Path f = Files.write(tmp.resolve("app-3"), Arrays.copyOf(realBytes, realBytes.length - 1));
    assertThat(realBytes[realBytes.length - 1]).isEqualTo((byte) '\n');
    assertThat(readAll(only(f), 0)).isEqualTo(realLines);
    assertThat(report.malformedLines()).isZero();
  }

  @Test
  void resumingSkipsExactlyTheLinesAlreadyRead() throws IOException {
    Path f = Files.write(tmp.resolve("app-4"), realBytes);
    EventLogSource s = only(f);
    long resumeAt;
    try (LineReader r = s.open(0)) {
      for (int i = 0; i < 7; i++) {
        r.next();
      }
      resumeAt = r.linesRead();
    }
    assertThat(resumeAt).isEqualTo(7);
    assertThat(readAll(s, resumeAt)).isEqualTo(realLines.subList(7, realLines.size()));
    assertThat(readAll(s, 1_000_000)).isEmpty();
  }

  @Test
  void emptyAndZeroByteFilesAreCountedAndNothingIsRead() throws IOException {
    Path zero = Files.createFile(tmp.resolve("app-5"));
    Path blank = Files.writeString(tmp.resolve("app-6"), "\n\n   \n");
    List<EventLogSource> s = EventLogs.discover(List.of(zero, blank), report);
    for (EventLogSource src : s) {
      assertThat(readAll(src, 0)).isEmpty();
    }
    assertThat(report.emptyFiles()).isEqualTo(1);
    assertThat(report.filesRead()).isEqualTo(2);
    assertThat(report.nothingRead()).isTrue();
  }

  @Test
  void directoryWalkSkipsFilesThatAreNotEventLogs() throws IOException {
    Path dir = Files.createDirectories(tmp.resolve("a/b"));
    Files.write(dir.resolve("app-7"), realBytes);
    Files.writeString(tmp.resolve("a/README.md"), "# not a log\n");
    Files.writeString(tmp.resolve("a/MANIFEST.tsv"), "name\tversion\n");
    Files.writeString(dir.resolve(".app-7.crc"), "xx");
    List<EventLogSource> s =
        EventLogs.discover(List.of(tmp.resolve("a"), tmp.resolve("missing")), report);
    assertThat(s).extracting(EventLogSource::name).containsExactly("app-7");
    assertThat(report.ignoredFiles()).isEqualTo(2);
    assertThat(report.unreadableFiles()).isEqualTo(1);
    assertThat(report.summary())
        .contains("ignored non-event-log files: 2")
        .contains("unreadable files: 1");
  }

  /**
   * Real compressed fixtures, with bytes flipped in the middle: the lines before the damage are
   * kept.
   */
  @Test
  void corruptBlockInARealCompressedLogEndsThatFileWithACountedError() throws IOException {
    List<Path> compressedFixtures;
    try (Stream<Path> files =
        Files.walk(Fixtures.eventLogDir(), java.nio.file.FileVisitOption.FOLLOW_LINKS)) {
      compressedFixtures =
          files
              .filter(Files::isRegularFile)
              .filter(p -> p.getFileName().toString().matches(".*\\.(lz4|zstd|snappy|lzf)"))
              .filter(
                  p -> {
                    try {
                      return Files.size(p) > 20_000;
                    } catch (IOException e) {
                      return false;
                    }
                  })
              .collect(Collectors.toList());
    }
    assertThat(compressedFixtures).as("real compressed fixtures").isNotEmpty();
    for (Path real : compressedFixtures) {
      ReadReport clean = new ReadReport();
      List<String> expected = readAll(EventLogs.discover(List.of(real), clean).get(0), 0);
      assertThat(clean.corruptBlocks()).isZero();

      byte[] bytes = Files.readAllBytes(real);
      for (int i = bytes.length / 2; i < bytes.length / 2 + 64; i++) {
        bytes[i] = (byte) 0xFF;
      }
      String name = real.getFileName().toString();
      Path damaged = Files.write(tmp.resolve("damaged-" + name), bytes);
      ReadReport r = new ReadReport();
      List<String> got = readAll(EventLogs.discover(List.of(damaged), r).get(0), 0);
      SparkEventParser parser = new SparkEventParser(r);
      for (String line : got) {
        try {
          parser.parse(line.getBytes(StandardCharsets.UTF_8));
        } catch (MalformedEventException e) {
          r.malformedLine(e.kind(), name);
        }
      }
      assertThat(r.corruptBlocks() + r.malformedLines())
          .as(name + ": damage is reported")
          .isPositive();
      assertThat(got).as(name).isNotEmpty().isNotEqualTo(expected);
      // lz4 blocks carry XXHash32 checksums: the damaged block is detected. Spark's zstd, snappy
      // and lzf
      // streams carry none, so damage inside literal data can decode to garbled lines, which the
      // parser
      // reports as malformed (invalid UTF-8 / not JSON) instead.
      if (name.endsWith(".lz4")) {
        assertThat(r.corruptBlocks()).as(name).isEqualTo(1);
        assertThat(got.size()).as(name).isLessThan(expected.size());
        assertThat(r.summary()).contains("corrupt compressed blocks: 1");
      }
      // everything before the damaged block is intact
      int intact = 0;
      while (intact < got.size() && got.get(intact).equals(expected.get(intact))) {
        intact++;
      }
      assertThat(intact).as(name + ": intact prefix").isPositive();
    }
  }

  @Test
  void overlongLinesAreSkippedAndCounted() throws IOException {
    Path f = tmp.resolve("app-8");
    try (OutputStream out = Files.newOutputStream(f)) {
      out.write((realLines.get(0) + "\n").getBytes(StandardCharsets.UTF_8));
      byte[] chunk = new byte[1 << 20];
      Arrays.fill(chunk, (byte) 'x');
      for (int i = 0; i <= SourceLineReader.MAX_LINE_BYTES >> 20; i++) {
        out.write(chunk);
      }
      out.write('\n');
      out.write((realLines.get(1) + "\n").getBytes(StandardCharsets.UTF_8));
    }
    assertThat(readAll(only(f), 0)).containsExactly(realLines.get(0), realLines.get(1));
    assertThat(report.tooLongLines()).isEqualTo(1);
  }
}
