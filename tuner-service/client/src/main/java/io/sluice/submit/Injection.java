package io.sluice.submit;

import io.sluice.model.JobKey;
import io.sluice.submit.client.Advice;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What Sluice adds to one application's conf, given the user's effective explicit conf and the service's advice:
 * the overlay (a key the user set wins unless {@code overrideUserConf}), the markers {@value #SUBMISSION_ID},
 * {@value JobKey#EXPLICIT_KEY}, {@value #INJECTED_PREFIX}K=V per injected key and {@value #ORIGINAL_PREFIX}K=user
 * value where a user value was overridden, and the Kafka listener when configured. Pure: shared by sluice-submit,
 * the Kyuubi advisor and the driver plugin.
 *
 * @param confs  confs to add, in order (never a key the user set, except a merged {@value #EXTRA_LISTENERS})
 * @param jar    a jar to append to the application's jars, or null
 * @param injected the overlay entries actually applied
 * @param keptUserValues overlay keys not applied because the user set them
 */
public record Injection(Map<String, String> confs, String jar, Map<String, String> injected,
    List<String> keptUserValues) {

  public static final String SUBMISSION_ID = "spark.sluice.submission.id";
  public static final String INJECTED_PREFIX = "spark.sluice.injected.";
  public static final String ORIGINAL_PREFIX = "spark.sluice.original.";
  public static final String EXTRA_LISTENERS = "spark.extraListeners";
  public static final String LISTENER_CLASS = "io.sluice.listener.SluiceKafkaListener";
  public static final String KAFKA_BOOTSTRAP = "spark.sluice.kafka.bootstrap";
  public static final String CLUSTER = "spark.sluice.cluster";

  /** Listener settings; both jar and bootstrap are needed to add the listener. */
  public record Listener(String jar, String kafkaBootstrap, String cluster) {
    public boolean configured() {
      return jar != null && kafkaBootstrap != null;
    }
  }

  /**
   * @param userConf the user's effective explicit conf (CLI, properties file)
   * @param only overlay keys that may be applied (null: all); the driver plugin passes the runtime SQL keys
   */
  public static Injection compute(Map<String, String> userConf, Advice advice, boolean overrideUserConf,
      Listener listener, java.util.function.Predicate<String> only) {
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
    String jar = null;
    if (listener != null && listener.configured()) {
      String existing = userConf.get(EXTRA_LISTENERS);
      List<String> listeners = existing == null || existing.isBlank() ? new ArrayList<>()
          : new ArrayList<>(Arrays.stream(existing.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList());
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
      jar = listener.jar();
    }
    return new Injection(confs, jar, injected, kept);
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
    StringBuilder sb = new StringBuilder("sluice: submission ").append(advice.submissionId())
        .append(" job ").append(advice.jobKey()).append(" [").append(advice.state()).append("]");
    sb.append(injected.isEmpty() ? " injected nothing" : " injected " + injected);
    if (!keptUserValues.isEmpty()) {
      sb.append("; kept user values of ").append(keptUserValues);
    }
    if (!advice.dropped().isEmpty()) {
      sb.append("; refused ").append(advice.dropped());
    }
    if (jar != null) {
      sb.append("; listener ").append(jar);
    }
    return sb.toString();
  }
}
