package io.sluice.submit.kyuubi;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * The Sluice settings of the Kyuubi server itself: the {@code spark.sluice.*} entries of the
 * server's {@code kyuubi-defaults.conf} (in {@code $KYUUBI_CONF_DIR}, else {@code
 * $KYUUBI_HOME/conf}). Read once when the advisor is created; a session's own conf is never
 * consulted for them.
 */
final class KyuubiServerConf {
  static final String FILE_NAME = "kyuubi-defaults.conf";
  static final String PREFIX = "spark.sluice.";

  private KyuubiServerConf() {}

  /** The server's defaults file, or null when neither variable names a directory. */
  static Path file(Map<String, String> env) {
    String dir = env.get("KYUUBI_CONF_DIR");
    if (dir != null && !dir.isBlank()) {
      return Path.of(dir.trim(), FILE_NAME);
    }
    String home = env.get("KYUUBI_HOME");
    return home == null || home.isBlank() ? null : Path.of(home.trim(), "conf", FILE_NAME);
  }

  /** The {@code spark.sluice.*} entries of {@code file} (empty when it is null or missing). */
  static Map<String, String> read(Path file) {
    Map<String, String> out = new TreeMap<>();
    if (file == null || !Files.isRegularFile(file)) {
      return out;
    }
    Properties p = new Properties();
    try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      p.load(r);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
    for (String k : p.stringPropertyNames()) {
      if (k.startsWith(PREFIX)) {
        out.put(k, p.getProperty(k).trim());
      }
    }
    return out;
  }
}
