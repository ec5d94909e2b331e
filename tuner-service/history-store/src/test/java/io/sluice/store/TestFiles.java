package io.sluice.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

final class TestFiles {
  private TestFiles() {}

  /** The module's build directory ({@code target}, absolute), created if missing. */
  static Path target() throws IOException {
    return Files.createDirectories(Path.of("target").toAbsolutePath());
  }

  /**
   * A new temporary directory under {@link #target()}, named {@code prefix} and a random suffix.
   */
  static Path tempDirInTarget(String prefix) throws IOException {
    return Files.createTempDirectory(target(), prefix);
  }

  static void deleteRecursively(Path dir) throws IOException {
    if (dir == null || !Files.exists(dir)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
