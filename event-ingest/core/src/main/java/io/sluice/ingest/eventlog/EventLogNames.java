package io.sluice.ingest.eventlog;

import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Spark's event-log file naming (EventLogFileWriters): suffixes, rolling parts and status markers.
 */
final class EventLogNames {
  static final String IN_PROGRESS = ".inprogress";
  static final String COMPACT = ".compact";
  static final String ROLLING_DIR_PREFIX = "eventlog_v2_";
  static final String STATUS_PREFIX = "appstatus_";
  private static final Pattern PART = Pattern.compile("events_(\\d+)_(.+)");

  private EventLogNames() {}

  /** A single log's name without {@code .inprogress} and codec suffixes. */
  static String baseName(String fileName) {
    String s = stripSuffix(fileName, IN_PROGRESS);
    s = stripSuffix(s, COMPACT);
    Codec c = Codec.fromExtension(s);
    return c == Codec.PLAIN ? s : s.substring(0, s.length() - c.shortName().length() - 1);
  }

  static boolean isRollingDir(String dirName) {
    return dirName.startsWith(ROLLING_DIR_PREFIX) && dirName.length() > ROLLING_DIR_PREFIX.length();
  }

  static String rollingName(String dirName) {
    return dirName.substring(ROLLING_DIR_PREFIX.length());
  }

  /** The index N of an {@code events_N_<app>[.codec][.compact]} part, if the name is one. */
  static OptionalInt partIndex(String fileName) {
    Matcher m = PART.matcher(fileName);
    if (!m.matches()) {
      return OptionalInt.empty();
    }
    try {
      return OptionalInt.of(Integer.parseInt(m.group(1)));
    } catch (NumberFormatException e) {
      return OptionalInt.empty();
    }
  }

  static boolean isCompact(String fileName) {
    return fileName.endsWith(COMPACT);
  }

  static boolean isStatusMarker(String fileName) {
    return fileName.startsWith(STATUS_PREFIX);
  }

  static boolean isInProgress(String fileName) {
    return fileName.endsWith(IN_PROGRESS);
  }

  /** Files never worth reading: hidden files and Hadoop checksum files. */
  static boolean isNoise(String fileName) {
    return fileName.startsWith(".") || fileName.endsWith(".crc");
  }

  private static String stripSuffix(String s, String suffix) {
    return s.endsWith(suffix) ? s.substring(0, s.length() - suffix.length()) : s;
  }
}
