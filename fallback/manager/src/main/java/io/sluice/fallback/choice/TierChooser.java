package io.sluice.fallback.choice;

import io.sluice.contracts.Tier;
import io.sluice.contracts.TierMarkers;
import io.sluice.fallback.conf.FallbackReason;
import io.sluice.fallback.conf.TierKeys;
import io.sluice.fallback.health.Health;
import io.sluice.fallback.health.TierHealthCheck;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The once-per-application-attempt choice, cheapest test first; never throws: whatever is missing
 * or malformed ends in native sort shuffle + ESS with the reason. In order:
 *
 * <ol>
 *   <li>no tier requested ({@value TierMarkers#TIER}), or {@code ESS} → ESS, no fallback;
 *   <li>an unknown tier name → ESS, {@link FallbackReason#UNKNOWN_TIER};
 *   <li>the application attempt above 1 → ESS, {@link FallbackReason#LATER_ATTEMPT} (malformed:
 *       {@link FallbackReason#BAD_CONF}): {@value TierKeys#YARN_ATTEMPT_ID} when the conf has it,
 *       else the attempt in the YARN container id of the driver's own container ({@value
 *       TierKeys#CONTAINER_ID_ENV}, cluster mode: Spark 3.5 keeps the attempt out of the conf);
 *       neither: the first attempt;
 *   <li>no tier manager class → {@link FallbackReason#NO_TIER_MANAGER}; one that does not load or
 *       is not a ShuffleManager → {@link FallbackReason#TIER_MANAGER_UNLOADABLE} (Spark push-based
 *       shuffle needs none: it is Spark's sort shuffle);
 *   <li>the tier's health check within {@value TierKeys#HEALTH_TIMEOUT_MS} → healthy: the tier;
 *       otherwise {@link FallbackReason#TIER_UNHEALTHY} ({@link FallbackReason#BAD_CONF} if its
 *       endpoints are malformed).
 * </ol>
 *
 * A {@code SPARK_PUSH} fallback also switches {@value TierKeys#PUSH_ENABLED} off.
 */
public final class TierChooser {
  private final Function<Tier, TierHealthCheck> healthChecks;
  private final Function<String, String> managerProblem;

  /**
   * @param healthChecks the health check of each tier (see {@link TierHealthCheck#standard})
   * @param managerProblem for a class name, why it cannot serve as a ShuffleManager, or null if it
   *     can
   */
  public TierChooser(
      Function<Tier, TierHealthCheck> healthChecks, Function<String, String> managerProblem) {
    this.healthChecks = healthChecks;
    this.managerProblem = managerProblem;
  }

  /** The standard health checks. */
  public static TierChooser standard(Function<String, String> managerProblem) {
    return new TierChooser(TierHealthCheck::standard, managerProblem);
  }

  /** {@link #choose(Map, Map)} without an environment (the attempt only from the conf). */
  public Decision choose(Map<String, String> conf) {
    return choose(conf, Map.of());
  }

  /**
   * @param conf the driver's conf
   * @param env the driver's environment (only {@value TierKeys#CONTAINER_ID_ENV} is read)
   */
  public Decision choose(Map<String, String> conf, Map<String, String> env) {
    String requested = conf.get(TierMarkers.TIER);
    if (requested == null || requested.isBlank()) {
      return new Decision(requested, Tier.ESS, TierKeys.SORT_SHUFFLE_MANAGER, null, "", false);
    }
    Optional<Tier> parsed = Tier.parse(requested);
    if (parsed.isEmpty()) {
      return Decision.fallback(
          requested,
          FallbackReason.UNKNOWN_TIER,
          "unknown tier '"
              + requested
              + "' (known: "
              + Arrays.stream(Tier.values()).map(Tier::wireName).collect(Collectors.joining(", "))
              + ")",
          false);
    }
    Tier tier = parsed.get();
    if (tier == Tier.ESS) {
      return new Decision(requested, Tier.ESS, TierKeys.SORT_SHUFFLE_MANAGER, null, "", false);
    }
    boolean push = tier == Tier.SPARK_PUSH;

    String attemptText = conf.get(TierKeys.YARN_ATTEMPT_ID);
    String attemptSource = TierKeys.YARN_ATTEMPT_ID;
    if (attemptText == null && env.get(TierKeys.CONTAINER_ID_ENV) != null) {
      attemptSource = TierKeys.CONTAINER_ID_ENV;
      attemptText = env.get(TierKeys.CONTAINER_ID_ENV);
    }
    if (attemptText != null) {
      long attempt =
          attemptSource.equals(TierKeys.CONTAINER_ID_ENV)
              ? attemptOfContainer(attemptText)
              : parseAttempt(attemptText);
      if (attempt < 1) {
        return Decision.fallback(
            requested,
            FallbackReason.BAD_CONF,
            attemptSource
                + "='"
                + attemptText
                + "' is not "
                + (attemptSource.equals(TierKeys.CONTAINER_ID_ENV)
                    ? "a YARN container id"
                    : "an attempt number"),
            push);
      }
      if (attempt > 1) {
        return Decision.fallback(
            requested,
            FallbackReason.LATER_ATTEMPT,
            "application attempt "
                + attempt
                + (attemptSource.equals(TierKeys.CONTAINER_ID_ENV)
                    ? " (container " + attemptText.trim() + ")"
                    : "")
                + ": the push tier is only tried on attempt 1",
            push);
      }
    }

    String manager =
        push ? TierKeys.SORT_SHUFFLE_MANAGER : trimToNull(conf.get(TierMarkers.SHUFFLE_MANAGER));
    if (manager == null) {
      return Decision.fallback(
          requested,
          FallbackReason.NO_TIER_MANAGER,
          TierMarkers.SHUFFLE_MANAGER + " is not set",
          false);
    }
    String problem = managerProblem.apply(manager);
    if (problem != null) {
      return Decision.fallback(
          requested, FallbackReason.TIER_MANAGER_UNLOADABLE, manager + ": " + problem, push);
    }

    long timeoutMs;
    String timeoutText = conf.get(TierKeys.HEALTH_TIMEOUT_MS);
    try {
      timeoutMs =
          timeoutText == null
              ? TierKeys.DEFAULT_HEALTH_TIMEOUT_MS
              : Long.parseLong(timeoutText.trim());
    } catch (NumberFormatException e) {
      timeoutMs = -1;
    }
    if (timeoutMs < 1) {
      return Decision.fallback(
          requested,
          FallbackReason.BAD_CONF,
          TierKeys.HEALTH_TIMEOUT_MS
              + "='"
              + timeoutText
              + "' is not a positive number of milliseconds",
          push);
    }

    Health health;
    try {
      health = healthChecks.apply(tier).check(conf, Duration.ofMillis(timeoutMs));
    } catch (IllegalArgumentException e) {
      return Decision.fallback(requested, FallbackReason.BAD_CONF, e.getMessage(), push);
    } catch (RuntimeException e) {
      return Decision.fallback(
          requested, FallbackReason.TIER_UNHEALTHY, "health check failed: " + e, push);
    }
    if (!health.healthy()) {
      return Decision.fallback(requested, FallbackReason.TIER_UNHEALTHY, health.detail(), push);
    }
    return new Decision(requested, tier, manager, null, "", false);
  }

  private static final java.util.regex.Pattern CONTAINER_ID =
      java.util.regex.Pattern.compile("container_(?:e\\d+_)?\\d+_\\d+_(\\d+)_\\d+");

  /** The application attempt in a YARN container id, or 0 if it is not one. */
  static long attemptOfContainer(String containerId) {
    java.util.regex.Matcher m = CONTAINER_ID.matcher(containerId.trim());
    return m.matches() ? parseAttempt(m.group(1)) : 0;
  }

  private static long parseAttempt(String text) {
    try {
      return Long.parseLong(text.trim());
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  private static String trimToNull(String s) {
    return s == null || s.isBlank() ? null : s.trim();
  }
}
