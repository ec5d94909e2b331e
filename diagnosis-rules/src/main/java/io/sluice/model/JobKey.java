package io.sluice.model;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The identity of a recurring job: the explicit {@value #EXPLICIT_KEY} if the scheduler set it,
 * else cluster + queue + user + the application name with dates, timestamps, UUIDs and long digit
 * runs normalised away, so that {@code daily_sales_2026-11-20} and {@code daily_sales_2026-11-21}
 * are one job.
 */
public final class JobKey {
  /** Spark property a scheduler may set to name the job explicitly. */
  public static final String EXPLICIT_KEY = "spark.sluice.job.key";

  private static final Pattern UUID =
      Pattern.compile(
          "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");
  // 2026-11-21, 2026_11_21, 2026/11/21, 2026.11.21, optionally followed by a time (T10:11:12,
  // _101112, …).
  private static final Pattern DATE_TIME =
      Pattern.compile(
          "(19|20)\\d{2}[-_/.](0[1-9]|1[0-2])[-_/.](0[1-9]|[12]\\d|3[01])([T _-]?\\d{1,2}[:_-]?\\d{2}([:_-]?\\d{2})?(\\.\\d+)?(Z|[+-]\\d{2}:?\\d{2})?)?");
  private static final Pattern TIME = Pattern.compile("\\b\\d{1,2}:\\d{2}(:\\d{2})?\\b");

  /**
   * Runs of 6+ digits (compact dates 20261121, epoch seconds/millis, ids). Shorter numbers are
   * kept: "top10".
   */
  private static final Pattern LONG_DIGITS = Pattern.compile("\\d{6,}");

  private JobKey() {}

  /**
   * Normalises an application name: variable parts become placeholders, whitespace is collapsed.
   */
  public static String normaliseName(String name) {
    if (name == null || name.isBlank()) {
      return "<unnamed>";
    }
    String s = UUID.matcher(name).replaceAll("<uuid>");
    s = DATE_TIME.matcher(s).replaceAll("<date>");
    s = TIME.matcher(s).replaceAll("<time>");
    s = LONG_DIGITS.matcher(s).replaceAll("<n>");
    return s.trim().replaceAll("\\s+", " ");
  }

  /**
   * The job key of a run.
   *
   * @param explicitKey the value of {@value #EXPLICIT_KEY}, or null
   */
  public static String of(
      String explicitKey, String cluster, String queue, String user, String appName) {
    if (explicitKey != null && !explicitKey.isBlank()) {
      return explicitKey.trim();
    }
    return part(cluster) + "/" + part(queue) + "/" + part(user) + "/" + normaliseName(appName);
  }

  private static String part(String s) {
    return s == null || s.isBlank() ? "-" : s.trim().toLowerCase(Locale.ROOT);
  }
}
