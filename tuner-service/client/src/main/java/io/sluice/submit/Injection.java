package io.sluice.submit;

import io.sluice.contracts.ConfMarkers;
import io.sluice.model.JobKey;
import io.sluice.submit.client.Advice;
import io.sluice.submit.platform.PlatformAllowList;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What Sluice adds to one application's conf, given the user's effective explicit conf and the
 * service's advice: the overlay (a key the user set wins unless {@code overrideUserConf}), the
 * markers {@value #SUBMISSION_ID}, {@value JobKey#EXPLICIT_KEY}, {@value #INJECTED_PREFIX}K=V per
 * injected key and {@value #ORIGINAL_PREFIX}K=user value where a user value was overridden, the
 * Kafka listener when configured, and the platform's additions ({@link Advice.Platform}): its confs
 * where neither the user nor the overlay set the key (never overriding the user, whatever {@code
 * overrideUserConf} says; the one exception is a platform conf that comes with {@value
 * #ORIGINAL_PREFIX}K = the user's value, a value that keeps the user's, such as a push-tier class
 * path with Sluice's jar prepended), its plugins merged into {@value #SPARK_PLUGINS} and its jars
 * appended to the application's jars, each recorded as {@value #PLATFORM_PREFIX}K=V. The platform's
 * additions are first limited to the client's {@link PlatformAllowList}: whatever it refuses is
 * left out, listed in {@code platformRefused} and counted in {@value #PLATFORM_REFUSED}. Pure:
 * shared by sluice-submit, the Kyuubi advisor and the driver plugin.
 *
 * @param confs confs to add, in order (never a key the user set, except a merged {@value
 *     #EXTRA_LISTENERS} or {@value #SPARK_PLUGINS})
 * @param jars jars to append to the application's jars (listener first, then the platform's),
 *     without duplicates of each other or of the user's
 * @param injected the overlay entries actually applied
 * @param keptUserValues overlay keys not applied because the user set them
 * @param platformRefused platform additions the client allow-list refused ({@code conf K}, {@code
 *     plugin C}, {@code jar J})
 */
public record Injection(
    Map<String, String> confs,
    List<String> jars,
    Map<String, String> injected,
    List<String> keptUserValues,
    List<String> platformRefused) {

  public static final String SUBMISSION_ID = ConfMarkers.SUBMISSION_ID;
  public static final String INJECTED_PREFIX = ConfMarkers.INJECTED_PREFIX;
  public static final String ORIGINAL_PREFIX = ConfMarkers.ORIGINAL_PREFIX;
  public static final String EXTRA_LISTENERS = "spark.extraListeners";
  public static final String LISTENER_CLASS = "io.sluice.listener.SluiceKafkaListener";
  public static final String KAFKA_BOOTSTRAP = "spark.sluice.kafka.bootstrap";
  public static final String CLUSTER = "spark.sluice.cluster";
  public static final String SPARK_PLUGINS = "spark.plugins";
  public static final String SPARK_JARS = "spark.jars";
  public static final String PLATFORM_PREFIX = ConfMarkers.PLATFORM_PREFIX;

  /** How many platform additions the client allow-list refused (set only when some were). */
  public static final String PLATFORM_REFUSED = ConfMarkers.PLATFORM_REFUSED;

  public Injection {
    confs = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(confs));
    jars = List.copyOf(jars);
    platformRefused = List.copyOf(platformRefused);
  }

  /** Listener settings; both jar and bootstrap are needed to add the listener. */
  public record Listener(String jar, String kafkaBootstrap, String cluster) {
    public boolean configured() {
      return jar != null && kafkaBootstrap != null;
    }
  }

  /**
   * @param userConf the user's effective explicit conf (CLI, properties file)
   * @param only overlay and platform conf keys that may be applied (null: all); the driver plugin
   *     passes the runtime SQL keys, and then platform plugins and jars are left out too (a running
   *     driver cannot load them)
   */
  public static Injection compute(
      Map<String, String> userConf,
      Advice advice,
      boolean overrideUserConf,
      Listener listener,
      java.util.function.Predicate<String> only) {
    return compute(
        userConf, advice, overrideUserConf, listener, only, PlatformAllowList.defaults());
  }

  /**
   * {@link #compute(Map, Advice, boolean, Listener, java.util.function.Predicate)} with the given
   * allow-list.
   */
  public static Injection compute(
      Map<String, String> userConf,
      Advice advice,
      boolean overrideUserConf,
      Listener listener,
      java.util.function.Predicate<String> only,
      PlatformAllowList allowList) {
    Map<String, String> confs = new LinkedHashMap<>();
    Map<String, String> injected = new LinkedHashMap<>();
    List<String> kept = new ArrayList<>();
    Map<String, String> originals = new LinkedHashMap<>();
    for (Map.Entry<String, String> e : advice.overlay().entrySet()) {
      String key = e.getKey();
      if (only != null && !only.test(key)) {
        continue;
      }
      String user = userConf.get(key);
      if (user != null) {
        if (user.trim().equals(e.getValue()) || !overrideUserConf) {
          kept.add(key);
          continue;
        }
        originals.put(ORIGINAL_PREFIX + key, user);
      }
      confs.put(key, e.getValue());
      injected.put(key, e.getValue());
    }
    confs.put(SUBMISSION_ID, advice.submissionId());
    String userKey = userConf.get(JobKey.EXPLICIT_KEY);
    if ((userKey == null || userKey.isBlank()) && !advice.jobKey().isBlank()) {
      confs.put(JobKey.EXPLICIT_KEY, advice.jobKey());
    }
    injected.forEach((k, v) -> confs.put(INJECTED_PREFIX + k, v));
    confs.putAll(originals);
    List<String> jars = new ArrayList<>();
    if (listener != null && listener.configured()) {
      String existing = userConf.get(EXTRA_LISTENERS);
      List<String> listeners =
          existing == null || existing.isBlank()
              ? new ArrayList<>()
              : new ArrayList<>(
                  Arrays.stream(existing.split(","))
                      .map(String::trim)
                      .filter(s -> !s.isEmpty())
                      .toList());
      if (!listeners.contains(LISTENER_CLASS)) {
        listeners.add(LISTENER_CLASS);
        confs.put(EXTRA_LISTENERS, String.join(",", listeners));
      }
      if (!userConf.containsKey(KAFKA_BOOTSTRAP)) {
        confs.put(KAFKA_BOOTSTRAP, listener.kafkaBootstrap());
      }
      if (!userConf.containsKey(CLUSTER) && listener.cluster() != null) {
        confs.put(CLUSTER, listener.cluster());
      }
      jars.add(listener.jar());
    }
    PlatformAllowList.Filtered allowed = allowList.filter(applicable(advice.platform(), only));
    platform(userConf, allowed.platform(), only, confs, jars);
    if (!allowed.refused().isEmpty()) {
      confs.put(PLATFORM_REFUSED, Integer.toString(allowed.refused().size()));
    }
    return new Injection(confs, jars, injected, kept, allowed.refused());
  }

  /**
   * The platform additions {@code only} lets through at all: with a filter, its confs and no
   * plugins or jars.
   */
  private static Advice.Platform applicable(
      Advice.Platform p, java.util.function.Predicate<String> only) {
    if (only == null) {
      return p;
    }
    Map<String, String> confs = new LinkedHashMap<>();
    p.confs()
        .forEach(
            (k, v) -> {
              if (only.test(k)) {
                confs.put(k, v);
              }
            });
    return new Advice.Platform(confs, List.of(), List.of(), p.reasons());
  }

  private static void platform(
      Map<String, String> userConf,
      Advice.Platform p,
      java.util.function.Predicate<String> only,
      Map<String, String> confs,
      List<String> jars) {
    for (Map.Entry<String, String> e : p.confs().entrySet()) {
      String key = e.getKey();
      boolean keepsUserValue =
          userConf.containsKey(key)
              && userConf.get(key).equals(p.confs().get(ORIGINAL_PREFIX + key));
      if ((only != null && !only.test(key))
          || (userConf.containsKey(key) && !keepsUserValue)
          || confs.containsKey(key)
          || key.equals(SPARK_PLUGINS)
          || key.equals(SPARK_JARS)) {
        continue;
      }
      confs.put(key, e.getValue());
      confs.put(PLATFORM_PREFIX + key, e.getValue());
    }
    if (only != null) {
      return;
    }
    List<String> plugins = split(userConf.get(SPARK_PLUGINS));
    List<String> added = new ArrayList<>();
    for (String plugin : p.plugins()) {
      if (!plugins.contains(plugin)) {
        plugins.add(plugin);
        added.add(plugin);
      }
    }
    if (!added.isEmpty()) {
      confs.put(SPARK_PLUGINS, String.join(",", plugins));
      confs.put(PLATFORM_PREFIX + SPARK_PLUGINS, String.join(",", added));
    }
    List<String> userJars = split(userConf.get(SPARK_JARS));
    List<String> addedJars = new ArrayList<>();
    for (String jar : p.jars()) {
      if (!userJars.contains(jar) && !jars.contains(jar)) {
        jars.add(jar);
        addedJars.add(jar);
      }
    }
    if (!addedJars.isEmpty()) {
      confs.put(PLATFORM_PREFIX + SPARK_JARS, String.join(",", addedJars));
    }
  }

  private static List<String> split(String list) {
    return list == null || list.isBlank()
        ? new ArrayList<>()
        : new ArrayList<>(
            Arrays.stream(list.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList());
  }

  /** Appends each of {@code add} to a comma-separated jar list unless it is already there. */
  public static String appendJars(String jars, List<String> add) {
    String out = jars;
    for (String jar : add) {
      out = appendJar(out, jar);
    }
    return out;
  }

  /** Appends {@code jar} to a comma-separated jar list unless it is already there. */
  public static String appendJar(String jars, String jar) {
    if (jars == null || jars.isBlank()) {
      return jar;
    }
    for (String j : jars.split(",")) {
      if (j.trim().equals(jar)) {
        return jars;
      }
    }
    return jars + "," + jar;
  }

  /** One line for stderr: what was injected and what was kept. */
  public String summary(Advice advice) {
    StringBuilder sb =
        new StringBuilder("sluice: submission ")
            .append(advice.submissionId())
            .append(" job ")
            .append(advice.jobKey())
            .append(" [")
            .append(advice.state())
            .append("]");
    sb.append(injected.isEmpty() ? " injected nothing" : " injected " + injected);
    if (!keptUserValues.isEmpty()) {
      sb.append("; kept user values of ").append(keptUserValues);
    }
    if (!advice.dropped().isEmpty()) {
      sb.append("; refused ").append(advice.dropped());
    }
    Map<String, String> platform = new LinkedHashMap<>();
    confs.forEach(
        (k, v) -> {
          if (k.startsWith(PLATFORM_PREFIX)) {
            platform.put(k.substring(PLATFORM_PREFIX.length()), v);
          }
        });
    if (!platform.isEmpty()) {
      sb.append("; platform added ").append(platform);
    }
    if (!platformRefused.isEmpty()) {
      sb.append("; platform additions refused by the client allow-list (")
          .append(platformRefused.size())
          .append(") ")
          .append(platformRefused);
    }
    if (!jars.isEmpty()) {
      sb.append("; jars ").append(jars);
    }
    return sb.toString();
  }
}
