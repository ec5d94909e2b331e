package io.sluice.collect;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.TreeMap;

/**
 * Progress of the event-log collector, one entry per log (keyed by the log's name, which stays the
 * same when Spark renames {@code x.inprogress} to {@code x}): lines already published and
 * acknowledged, whether the log is finished, and the application ids taken from it. Saved as JSON
 * through a temporary file and an atomic rename, so a crash leaves either the old or the new file;
 * the temporary file is fsync'd before the rename and the directory after it, so a saved offset
 * survives a power loss too (otherwise a machine crash could bring back an older offset and
 * republish lines).
 */
final class OffsetStore {

  /** Progress of one log. */
  record Entry(long lines, boolean completed, String appId, String appAttemptId) {
    Entry withLines(long n, boolean done) {
      return new Entry(n, done, appId, appAttemptId);
    }
  }

  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private final Path file;
  private final Map<String, Entry> entries = new TreeMap<>();

  OffsetStore(Path file) {
    this.file = file;
    if (file != null && Files.exists(file)) {
      try {
        entries.putAll(JSON.readValue(file.toFile(), new TypeReference<Map<String, Entry>>() {}));
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read offsets file " + file, e);
      }
    }
  }

  synchronized Entry get(String name) {
    return entries.get(name);
  }

  synchronized void put(String name, Entry e) {
    entries.put(name, e);
  }

  synchronized Map<String, Entry> snapshot() {
    return Map.copyOf(entries);
  }

  synchronized void save() {
    if (file == null) {
      return;
    }
    try {
      Path dir = file.toAbsolutePath().getParent();
      Files.createDirectories(dir);
      Path tmp = Files.createTempFile(dir, file.getFileName().toString(), ".tmp");
      try (FileChannel ch =
          FileChannel.open(tmp, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
        ByteBuffer buf = ByteBuffer.wrap(JSON.writeValueAsBytes(entries));
        while (buf.hasRemaining()) {
          ch.write(buf);
        }
        ch.force(true);
      }
      try {
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
      }
      try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
        d.force(true); // the rename itself
      } catch (IOException notSupported) {
        // some filesystems cannot sync a directory; the file's own content is synced
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write offsets file " + file, e);
    }
  }
}
