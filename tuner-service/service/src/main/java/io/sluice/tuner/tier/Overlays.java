package io.sluice.tuner.tier;

import io.sluice.contracts.Tier;
import io.sluice.contracts.TierMarkers;
import io.sluice.submit.Injection;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The push tiers' conf overlays, pure. An overlay is only ever appended: a key the user set is
 * never in it (one exception, the class paths below), and a user value that contradicts the tier
 * (push switched off, the ESS disabled, another shuffle manager, a serializer that cannot relocate,
 * I/O encryption for Spark push) refuses the tier instead, with the reason. Every push overlay
 * keeps the ESS on ({@code spark.shuffle.service.enabled=true}, the fallback), adds {@code
 * spark.yarn.maxAppAttempts=2} (attempt 2 runs on the ESS) and the {@link TierMarkers}.
 *
 * <p><b>Through Sluice's fallback manager.</b> Every push overlay sets {@code
 * spark.shuffle.manager=}{@value #SLUICE_MANAGER} and names the tier's own manager in {@link
 * TierMarkers#SHUFFLE_MANAGER} (SPARK_PUSH: Spark's {@value #SORT_MANAGER}, with push on); the
 * fallback manager picks the tier on attempt 1 when it answers its health check, native sort
 * shuffle + ESS otherwise (and switches push off for SPARK_PUSH). Spark 3.5 creates the executors'
 * ShuffleManager before it fetches {@code spark.jars}, so the fallback manager's jar ({@link
 * OverlaySettings#managerJar()}, required: without it the tier is refused) and the tier's client
 * jar (Celeborn/Uniffle, when configured; otherwise it must be in the nodes' {@code
 * $SPARK_HOME/jars}, and if it is not the driver falls back with {@code TIER_MANAGER_UNLOADABLE})
 * go on {@value #DRIVER_CLASSPATH} and {@value #EXECUTOR_CLASSPATH}.
 *
 * <p><b>A user who set a class path</b> keeps it: the Sluice jars are prepended to the user's value
 * (jars the value already lists are not added again) rather than the tier being refused, and the
 * user's value is recorded under {@code spark.sluice.original.<key>} ({@link
 * Injection#ORIGINAL_PREFIX}), from which a fallback re-run restores it ({@code fallback/conf
 * OriginalConf}). These two keys are the only user keys an overlay may carry; they are emitted only
 * together with their original marker.
 *
 * <p><b>A user who set the tier's own manager</b> ({@code spark.shuffle.manager} =
 * Celeborn's/Uniffle's class, or {@code sort} for SPARK_PUSH) keeps it: no fallback manager and no
 * class path entries are added (so there is no per-attempt fallback to the ESS; for SPARK_PUSH a
 * second attempt pushes again, Spark's own merged-fetch fallback still applies), and the reason
 * says so.
 *
 * <ul>
 *   <li>SPARK_PUSH: only on a YARN cluster whose ESS runs the push merge manager (from
 *       configuration) and with {@code spark.master} unset or {@code yarn}; {@code
 *       spark.shuffle.push.enabled=true} and a relocatable serializer ({@code KryoSerializer}:
 *       Spark turns push off silently with the default JavaSerializer).
 *   <li>CELEBORN (0.5.x client): tier manager {@code
 *       org.apache.spark.shuffle.celeborn.SparkShuffleManager}, {@code
 *       spark.celeborn.master.endpoints}, {@code
 *       spark.celeborn.client.spark.shuffle.fallback.policy}, tenant = queue via Celeborn's
 *       DefaultIdentityProvider ({@code spark.celeborn.quota.identity.user-specific.tenant}; no
 *       queue: Celeborn's default tenant).
 *   <li>UNIFFLE (0.9.x client): tier manager {@code
 *       org.apache.spark.shuffle.DelegationRssShuffleManager} (asks the coordinator for access and
 *       falls back to sort shuffle itself when refused), {@code spark.rss.coordinator.quorum},
 *       {@code spark.rss.access.id} = queue (a job without a queue is refused), and KryoSerializer
 *       (Uniffle needs relocatable serialized records).
 * </ul>
 */
public final class Overlays {
  public static final String SHUFFLE_MANAGER = "spark.shuffle.manager";
  public static final String ESS_ENABLED = "spark.shuffle.service.enabled";
  public static final String MAX_APP_ATTEMPTS = "spark.yarn.maxAppAttempts";
  public static final String SERIALIZER = "spark.serializer";
  public static final String KRYO = "org.apache.spark.serializer.KryoSerializer";
  public static final String PUSH_ENABLED = "spark.shuffle.push.enabled";
  public static final String IO_ENCRYPTION = "spark.io.encryption.enabled";
  public static final String MASTER = "spark.master";
  public static final String CELEBORN_MANAGER =
      "org.apache.spark.shuffle.celeborn.SparkShuffleManager";
  public static final String CELEBORN_MASTERS = "spark.celeborn.master.endpoints";
  public static final String CELEBORN_FALLBACK =
      "spark.celeborn.client.spark.shuffle.fallback.policy";
  public static final String CELEBORN_IDENTITY = "spark.celeborn.quota.identity.provider";
  public static final String CELEBORN_DEFAULT_IDENTITY =
      "org.apache.celeborn.common.identity.DefaultIdentityProvider";
  public static final String CELEBORN_TENANT = "spark.celeborn.quota.identity.user-specific.tenant";
  public static final String UNIFFLE_MANAGER =
      "org.apache.spark.shuffle.DelegationRssShuffleManager";
  public static final String UNIFFLE_QUORUM = "spark.rss.coordinator.quorum";
  public static final String UNIFFLE_ACCESS_ID = "spark.rss.access.id";
  public static final String SLUICE_MANAGER = "io.sluice.fallback.SluiceShuffleManager";
  public static final String SORT_MANAGER = "org.apache.spark.shuffle.sort.SortShuffleManager";
  public static final String DRIVER_CLASSPATH = "spark.driver.extraClassPath";
  public static final String EXECUTOR_CLASSPATH = "spark.executor.extraClassPath";

  /** The class path separator of the cluster's nodes (Linux). */
  static final String PATH_SEPARATOR = ":";

  static final int MAX_REASON = 500;

  private Overlays() {}

  /**
   * The overlay of {@code tier} for a job.
   *
   * @param userConf the user's explicit confs
   * @param queue the job's queue (may be empty)
   * @param ruleId the rollout rule that granted the tier
   * @param reason why the job got the tier (becomes {@link TierMarkers#REASON})
   */
  public static Overlay of(
      Tier tier,
      Map<String, String> userConf,
      String queue,
      OverlaySettings s,
      String ruleId,
      String reason) {
    if (!tier.isPush()) {
      throw new IllegalArgumentException("ESS has no overlay; use essMarkers");
    }
    String common = commonRefusal(tier, userConf, s);
    if (common != null) {
      return refuse(common);
    }
    Map<String, String> c = new LinkedHashMap<>();
    switch (tier) {
      case SPARK_PUSH -> {
        if (!s.yarn()) {
          return refuse("SPARK_PUSH needs YARN and the job's cluster is not configured as YARN");
        }
        if (!s.pushMergeOnEss()) {
          return refuse(
              "SPARK_PUSH needs the push merge manager on the cluster's ESS, which the configuration "
                  + "does not declare");
        }
        String master = userConf.get(MASTER);
        if (master != null && !master.trim().equals("yarn")) {
          return refuse("SPARK_PUSH runs only on YARN; the job's spark.master is " + master.trim());
        }
        if (isFalse(userConf.get(PUSH_ENABLED))) {
          return refuse("the user set " + PUSH_ENABLED + "=false");
        }
        if (isTrue(userConf.get(IO_ENCRYPTION))) {
          return refuse("Spark push-based shuffle does not support " + IO_ENCRYPTION + "=true");
        }
        String ser = serializerRefusal(tier, userConf);
        if (ser != null) {
          return refuse(ser);
        }
        c.put(PUSH_ENABLED, "true");
        c.put(SERIALIZER, KRYO);
      }
      case CELEBORN -> {
        if (s.celebornMasters().isEmpty()) {
          return refuse("CELEBORN master endpoints are not configured");
        }
        String policy = s.celebornFallback().toUpperCase(Locale.ROOT);
        c.put(CELEBORN_MASTERS, s.celebornMasters());
        c.put(CELEBORN_FALLBACK, policy);
        if (!queue.isBlank()) {
          c.put(CELEBORN_IDENTITY, CELEBORN_DEFAULT_IDENTITY);
          c.put(CELEBORN_TENANT, queue);
        }
      }
      case UNIFFLE -> {
        if (s.uniffleQuorum().isEmpty()) {
          return refuse("UNIFFLE coordinator quorum is not configured");
        }
        if (queue.isBlank()) {
          return refuse("UNIFFLE needs the queue as its access id and the job has no queue");
        }
        String ser = serializerRefusal(tier, userConf);
        if (ser != null) {
          return refuse(ser);
        }
        c.put(UNIFFLE_QUORUM, s.uniffleQuorum());
        c.put(UNIFFLE_ACCESS_ID, queue);
        c.put(SERIALIZER, KRYO);
      }
      default -> throw new IllegalStateException(tier.name());
    }
    String tierManager = tierManager(tier);
    String userManager = trimToNull(userConf.get(SHUFFLE_MANAGER));
    Set<String> replacesUserKey = new HashSet<>();
    String why = reason;
    if (userManager == null) {
      if (s.managerJar().isEmpty()) {
        return refuse(
            tier
                + " needs Sluice's fallback manager on the nodes' class path and its jar "
                + "(sluice.tier.overlay.manager-jar) is not configured");
      }
      c.put(SHUFFLE_MANAGER, SLUICE_MANAGER);
      List<String> jars = new ArrayList<>(List.of(s.managerJar()));
      String clientJar = s.clientJar(tier);
      if (!clientJar.isEmpty()) {
        jars.add(clientJar);
      }
      for (String key : List.of(DRIVER_CLASSPATH, EXECUTOR_CLASSPATH)) {
        classPath(key, jars, userConf, c, replacesUserKey);
      }
    } else {
      why =
          (reason == null ? "" : reason + "; ")
              + "the user set "
              + SHUFFLE_MANAGER
              + "="
              + userManager
              + " (the tier's own manager): kept, without Sluice's fallback manager";
    }
    c.put(ESS_ENABLED, "true");
    c.put(MAX_APP_ATTEMPTS, "2");
    c.put(TierMarkers.TIER, tier.name());
    c.put(TierMarkers.SHUFFLE_MANAGER, tierManager);
    if (ruleId != null) {
      c.put(TierMarkers.RULE, ruleId);
    }
    c.put(TierMarkers.REASON, oneLine(why));
    c.keySet().removeIf(k -> userConf.containsKey(k) && !replacesUserKey.contains(k));
    return new Overlay(c, null);
  }

  /** The tier's own ShuffleManager class, the one {@link TierMarkers#SHUFFLE_MANAGER} names. */
  static String tierManager(Tier tier) {
    return switch (tier) {
      case SPARK_PUSH -> SORT_MANAGER;
      case CELEBORN -> CELEBORN_MANAGER;
      case UNIFFLE -> UNIFFLE_MANAGER;
      case ESS -> throw new IllegalArgumentException("ESS has no tier manager");
    };
  }

  /**
   * Puts {@code jars} on the class path {@code key}: alone when the user has no value, else
   * prepended to the user's value (entries it already lists are not repeated; nothing at all if it
   * lists them all), with the user's value kept under {@code spark.sluice.original.<key>}.
   */
  private static void classPath(
      String key,
      List<String> jars,
      Map<String, String> userConf,
      Map<String, String> c,
      Set<String> replacesUserKey) {
    String user = userConf.get(key);
    if (user == null) {
      c.put(key, String.join(PATH_SEPARATOR, jars));
      return;
    }
    List<String> entries = Arrays.stream(user.split(PATH_SEPARATOR)).map(String::trim).toList();
    List<String> missing = jars.stream().filter(j -> !entries.contains(j)).toList();
    if (missing.isEmpty()) {
      return;
    }
    c.put(
        key, String.join(PATH_SEPARATOR, missing) + (user.isBlank() ? "" : PATH_SEPARATOR + user));
    c.put(Injection.ORIGINAL_PREFIX + key, user);
    replacesUserKey.add(key);
  }

  private static String trimToNull(String s) {
    return s == null || s.isBlank() ? null : s.trim();
  }

  /** The markers of a job a rollout rule considered but that stays on the ESS, and why. */
  public static Map<String, String> essMarkers(
      Map<String, String> userConf, String ruleId, String reason) {
    Map<String, String> c = new LinkedHashMap<>();
    c.put(TierMarkers.TIER, TierMarkers.ESS);
    if (ruleId != null) {
      c.put(TierMarkers.RULE, ruleId);
    }
    c.put(TierMarkers.REASON, oneLine(reason));
    c.keySet().removeIf(userConf::containsKey);
    return c;
  }

  private static String commonRefusal(Tier tier, Map<String, String> userConf, OverlaySettings s) {
    if (isFalse(userConf.get(ESS_ENABLED))) {
      return "the user set "
          + ESS_ENABLED
          + "=false and "
          + tier
          + " needs the ESS as its fallback";
    }
    String manager = userConf.get(SHUFFLE_MANAGER);
    if (manager != null && !manager.isBlank()) {
      String m = manager.trim();
      boolean fits =
          switch (tier) {
            case SPARK_PUSH -> isSort(m);
            case CELEBORN -> m.equals(CELEBORN_MANAGER);
            case UNIFFLE -> m.equals(UNIFFLE_MANAGER);
            default -> false;
          };
      if (!fits) {
        return "the user set " + SHUFFLE_MANAGER + "=" + m;
      }
    }
    String attempts = userConf.get(MAX_APP_ATTEMPTS);
    if (s.yarn() && attempts != null && attempts.trim().equals("1")) {
      return "the user set "
          + MAX_APP_ATTEMPTS
          + "=1, so a failed push-tier attempt could not be retried on the ESS";
    }
    return null;
  }

  private static String serializerRefusal(Tier tier, Map<String, String> userConf) {
    String ser = userConf.get(SERIALIZER);
    if (ser != null && !ser.trim().equals(KRYO)) {
      return tier
          + " needs a serializer that relocates serialized records ("
          + KRYO
          + "); the user set "
          + SERIALIZER
          + "="
          + ser.trim();
    }
    return null;
  }

  private static boolean isSort(String manager) {
    return manager.equals("sort")
        || manager.equals("org.apache.spark.shuffle.sort.SortShuffleManager");
  }

  private static boolean isFalse(String v) {
    return v != null && v.trim().equalsIgnoreCase("false");
  }

  private static boolean isTrue(String v) {
    return v != null && v.trim().equalsIgnoreCase("true");
  }

  private static Overlay refuse(String why) {
    return new Overlay(Map.of(), why);
  }

  static String oneLine(String s) {
    String t = s == null ? "" : s.replaceAll("[\\r\\n\\t]+", " ").trim();
    return t.length() <= MAX_REASON ? t : t.substring(0, MAX_REASON - 1) + "…";
  }
}
