package io.sluice.collect;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import java.util.TreeMap;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

/**
 * Progress of the event-log collector, one entry per log (keyed by the log's name, which stays the
 * same when Spark renames {@code x.inprogress} to {@code x}): lines already published and
 * acknowledged, whether the log is finished, and the application ids taken from it. Saved as JSON
 * through a temporary file and an atomic rename, so a crash leaves either the old or the new file.
 */
final class OffsetStore {

    /** Progress of one log. */
    record Entry(long lines, boolean completed, String appId, String appAttemptId) {
        Entry withLines(long n, boolean done) {
            return new Entry(n, done, appId, appAttemptId);
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private final Path file;
    private final Map<String, Entry> entries = new TreeMap<>();

    OffsetStore(Path file) {
        this.file = file;
        if (file != null && Files.exists(file)) {
            try {
                entries.putAll(JSON.readValue(file.toFile(), new TypeReference<Map<String, Entry>>() { }));
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
            JSON.writeValue(tmp.toFile(), entries);
            try {
                Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write offsets file " + file, e);
        }
    }
}
