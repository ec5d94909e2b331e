package io.sluice.ingest.eventlog;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.DirectoryStream;
import java.nio.file.FileVisitOption;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.TreeMap;

/**
 * Finds event logs. A file argument is always read as one log. A directory named {@code
 * eventlog_v2_*} is one rolling log; any other directory is walked recursively, taking rolling
 * directories whole and files that look like event logs (compressed-codec magic, or plain text
 * starting with a JSON object); other files are counted as ignored.
 */
public final class EventLogs {
  private EventLogs() {}

  public static List<EventLogSource> discover(List<Path> paths, ReadReport report) {
    Map<Path, EventLogSource> found = new LinkedHashMap<>();
    for (Path path : paths) {
      Path p = path.toAbsolutePath().normalize();
      if (!Files.exists(p)) {
        report.unreadableFile(path, "no such file or directory");
      } else if (Files.isDirectory(p)) {
        if (EventLogNames.isRollingDir(p.getFileName().toString())) {
          found.putIfAbsent(p, rolling(p, report));
        } else {
          walk(p, report, found);
        }
      } else if (!Files.isReadable(p)) {
        report.unreadableFile(path, "not readable");
      } else {
        found.putIfAbsent(p, single(p, report));
      }
    }
    List<EventLogSource> out = new ArrayList<>(found.values());
    out.sort(Comparator.comparing(EventLogSource::name).thenComparing(s -> s.files().toString()));
    return out;
  }

  private static SingleFileSource single(Path file, ReadReport report) {
    String name = file.getFileName().toString();
    return new SingleFileSource(
        EventLogNames.baseName(name), file, EventLogNames.isInProgress(name), report);
  }

  private static void walk(Path root, ReadReport report, Map<Path, EventLogSource> found) {
    try {
      Files.walkFileTree(
          root,
          EnumSet.of(FileVisitOption.FOLLOW_LINKS),
          Integer.MAX_VALUE,
          new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
              String name = dir.getFileName() == null ? "" : dir.getFileName().toString();
              if (!dir.equals(root) && name.startsWith(".")) {
                return FileVisitResult.SKIP_SUBTREE;
              }
              if (EventLogNames.isRollingDir(name)) {
                found.putIfAbsent(dir, rolling(dir, report));
                return FileVisitResult.SKIP_SUBTREE;
              }
              return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
              String name = file.getFileName().toString();
              if (!attrs.isRegularFile() || EventLogNames.isNoise(name)) {
                return FileVisitResult.CONTINUE;
              }
              if (looksLikeEventLog(file)) {
                found.putIfAbsent(file, single(file, report));
              } else {
                report.ignoredFile(file);
              }
              return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) {
              report.unreadableFile(file, e.toString());
              return FileVisitResult.CONTINUE;
            }
          });
    } catch (IOException e) {
      report.unreadableFile(root, e.toString());
    }
  }

  /**
   * Compressed with a Spark codec, or text whose first non-blank byte opens a JSON object; empty
   * files too.
   */
  static boolean looksLikeEventLog(Path file) {
    try (InputStream in = Files.newInputStream(file)) {
      byte[] head = in.readNBytes(64);
      if (head.length == 0) {
        return true; // read it so that the report counts it as empty
      }
      if (Codec.sniff(head, head.length) != null) {
        return true;
      }
      for (byte b : head) {
        if (b == '{') {
          return true;
        }
        if (b != ' ' && b != '\t' && b != '\r' && b != '\n') {
          return false;
        }
      }
      return false;
    } catch (IOException e) {
      return true; // let the reader report why it cannot be read
    }
  }

  private static RollingSource rolling(Path dir, ReadReport report) {
    String name = EventLogNames.rollingName(dir.getFileName().toString());
    TreeMap<Integer, Path> parts = new TreeMap<>();
    TreeMap<Integer, Path> compacts = new TreeMap<>();
    boolean sawStatus = false;
    boolean inProgress = false;
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
      for (Path f : ds) {
        String fn = f.getFileName().toString();
        if (EventLogNames.isNoise(fn) || !Files.isRegularFile(f)) {
          continue;
        }
        if (EventLogNames.isStatusMarker(fn)) {
          sawStatus = true;
          inProgress |= EventLogNames.isInProgress(fn);
          continue;
        }
        OptionalInt idx = EventLogNames.partIndex(fn);
        if (idx.isEmpty()) {
          report.ignoredFile(f);
        } else if (EventLogNames.isCompact(fn)) {
          compacts.put(idx.getAsInt(), f);
        } else {
          parts.put(idx.getAsInt(), f);
        }
      }
    } catch (IOException e) {
      report.unreadableFile(dir, e.toString());
    }
    List<Path> files = new ArrayList<>();
    int from = Integer.MIN_VALUE;
    if (!compacts.isEmpty()) {
      // A compacted part replaces every part up to and including its index.
      Map.Entry<Integer, Path> last = compacts.lastEntry();
      files.add(last.getValue());
      from = last.getKey() + 1;
    }
    files.addAll(parts.tailMap(from, true).values());
    // No status marker at all: Spark creates it first, so the log is either being set up or
    // damaged.
    return new RollingSource(name, dir, files, inProgress || !sawStatus, report);
  }
}
