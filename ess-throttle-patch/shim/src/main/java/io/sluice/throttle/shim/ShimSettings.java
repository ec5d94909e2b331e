package io.sluice.throttle.shim;

import java.util.List;
import java.util.Map;

import io.sluice.throttle.settings.DeclaredSettings;
import io.sluice.throttle.settings.DeclaredSettings.Setting;

/**
 * The shim's settings, each declared once here with its default and meaning; read from the application's Spark conf
 * ({@code spark.sluice.shim.*}). A bad value fails plugin start-up with a message naming the key (the plugin then
 * logs it and the app runs stock).
 *
 * @param maxSleepPerTaskMillis total directed sleep one task honours; once spent, that task's fetches are re-issued at
 *     once after a directive (the gate holds them instead of directing again once its own per-app budget is spent)
 * @param maxDirectivesPerFetch safety net: a fetch (its blocks and their re-issues) answered with more directives
 *     than this has its blocks failed with the last directive, as a stock client would see them
 * @param hello announce the shim to the shuffle services (HELLO); without it the gates never send this app
 *     directives and the shim has nothing to do
 */
public record ShimSettings(long maxSleepPerTaskMillis, int maxDirectivesPerFetch, boolean hello) {
  public static final String PREFIX = "spark.sluice.shim.";

  public static final Setting MAX_SLEEP_PER_TASK_MS = new Setting(PREFIX + "maxSleepPerTaskMs", "60000",
      "Total SLEEP time one task honours (ms); beyond it the affected blocks are re-issued at once.");
  public static final Setting MAX_DIRECTIVES_PER_FETCH = new Setting(PREFIX + "maxDirectivesPerFetch", "50",
      "Safety net: after this many directives for one fetch and its re-issues, its blocks fail as on a stock client.");
  public static final Setting HELLO = new Setting(PREFIX + "hello", "true",
      "Announce the shim to each shuffle service (HELLO), so its gate may send SLEEP directives instead of holding.");

  public static final List<Setting> SETTINGS = List.of(MAX_SLEEP_PER_TASK_MS, MAX_DIRECTIVES_PER_FETCH, HELLO);

  public ShimSettings {
    if (maxSleepPerTaskMillis < 0) {
      throw new IllegalArgumentException(MAX_SLEEP_PER_TASK_MS.key() + " must be >= 0, was " + maxSleepPerTaskMillis);
    }
    if (maxDirectivesPerFetch < 1) {
      throw new IllegalArgumentException(MAX_DIRECTIVES_PER_FETCH.key() + " must be >= 1, was "
          + maxDirectivesPerFetch);
    }
  }

  public static ShimSettings defaults() {
    return from(Map.of());
  }

  /** From Spark conf entries (other keys are ignored; an unknown {@code spark.sluice.shim.*} key fails). */
  public static ShimSettings from(Map<String, String> conf) {
    DeclaredSettings v = DeclaredSettings.parse(PREFIX, "shim", SETTINGS, conf);
    return new ShimSettings(
        v.longValue(MAX_SLEEP_PER_TASK_MS, 0, Long.MAX_VALUE, "milliseconds"),
        v.intValue(MAX_DIRECTIVES_PER_FETCH, 1, Integer.MAX_VALUE),
        v.boolValue(HELLO));
  }
}
