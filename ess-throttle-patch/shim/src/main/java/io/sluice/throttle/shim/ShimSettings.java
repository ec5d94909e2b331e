package io.sluice.throttle.shim;

import io.sluice.config.Catalogue;
import io.sluice.config.Setting;
import io.sluice.config.SettingValues;
import io.sluice.config.Unit;
import java.util.List;
import java.util.Map;

/**
 * The shim's settings, each declared once here with its default and meaning; read from the
 * application's Spark conf ({@code spark.sluice.shim.*}). A bad value fails plugin start-up with a
 * message naming the key (the plugin then logs it and the app runs stock).
 *
 * @param maxSleepPerTaskMillis total directed sleep one task honours; once spent, that task's
 *     fetches are re-issued at once after a directive (the gate holds them instead of directing
 *     again once its own per-app budget is spent)
 * @param maxDirectivesPerFetch safety net: a fetch (its blocks and their re-issues) answered with
 *     more directives than this has its blocks failed with the last directive, as a stock client
 *     would see them
 * @param hello announce the shim to the shuffle services (HELLO); without it the gates never send
 *     this app directives and the shim has nothing to do
 */
public record ShimSettings(long maxSleepPerTaskMillis, int maxDirectivesPerFetch, boolean hello) {
  public static final String PREFIX = "spark.sluice.shim.";

  public static final Setting<Long> MAX_SLEEP_PER_TASK_MS =
      Setting.ofLong(
          PREFIX + "maxSleepPerTaskMs",
          Unit.MILLIS,
          600_000,
          0,
          Long.MAX_VALUE,
          "Total SLEEP time one task honours; beyond it the affected blocks are re-issued at once. A gate pauses "
              + "an app for up to 2 minutes at a time (sleep.maxMs), told in directives of at most 10 s "
              + "(sleep.recheckMs); keep this well above the gate's pause budget (sleep.budgetMs, 3 minutes per 5).");
  public static final Setting<Long> MAX_DIRECTIVES_PER_FETCH =
      Setting.ofLong(
          PREFIX + "maxDirectivesPerFetch",
          Unit.COUNT,
          200,
          1,
          Integer.MAX_VALUE,
          "Safety net: after this many directives for one fetch and its re-issues, "
              + "its blocks fail as on a stock client (a 2-minute pause told every 10 s is 12 directives).");
  public static final Setting<Boolean> HELLO =
      Setting.ofBoolean(
          PREFIX + "hello",
          true,
          "Announce the shim to each shuffle service (HELLO), so its gate may send SLEEP directives instead of holding.");

  public static final List<Setting<?>> SETTINGS =
      List.of(MAX_SLEEP_PER_TASK_MS, MAX_DIRECTIVES_PER_FETCH, HELLO);

  /** The shim's settings as the configuration reference lists them. */
  public static final Catalogue CATALOGUE =
      new Catalogue(
          "Client shim",
          "The application's Spark conf (`"
              + PREFIX
              + "…`); the shim is the executor plugin `io.sluice.throttle.shim.SluiceShimPlugin`.",
          SETTINGS);

  public ShimSettings {
    if (maxSleepPerTaskMillis < 0) {
      throw new IllegalArgumentException(
          MAX_SLEEP_PER_TASK_MS.key() + " must be >= 0, was " + maxSleepPerTaskMillis);
    }
    if (maxDirectivesPerFetch < 1) {
      throw new IllegalArgumentException(
          MAX_DIRECTIVES_PER_FETCH.key() + " must be >= 1, was " + maxDirectivesPerFetch);
    }
  }

  public static ShimSettings defaults() {
    return from(Map.of());
  }

  /**
   * From Spark conf entries (other keys are ignored; an unknown {@code spark.sluice.shim.*} key
   * fails).
   */
  public static ShimSettings from(Map<String, String> conf) {
    SettingValues v = SettingValues.parse(PREFIX, "shim", SETTINGS, conf);
    return new ShimSettings(
        v.get(MAX_SLEEP_PER_TASK_MS),
        Math.toIntExact(v.get(MAX_DIRECTIVES_PER_FETCH)),
        v.get(HELLO));
  }
}
