package io.sluice.submit.kyuubi;

import io.sluice.contracts.api.SubmissionRequest;
import io.sluice.model.JobKey;
import io.sluice.rules.AllowList;
import io.sluice.submit.Injection;
import io.sluice.submit.client.Advice;
import io.sluice.submit.client.CircuitBreaker;
import io.sluice.submit.client.Outcome;
import io.sluice.submit.client.TunerClient;
import io.sluice.submit.client.TunerSettings;
import io.sluice.submit.platform.PlatformAllowList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.apache.kyuubi.plugin.SessionConfAdvisor;

/**
 * Kyuubi {@code kyuubi.session.conf.advisor=io.sluice.submit.kyuubi.SluiceSessionConfAdvisor}: asks
 * tuner-service for the session's engine and returns the overlay with Sluice's markers (and the
 * listener, when configured) — the same answer {@code sluice-submit} would add. Settings ({@link
 * TunerSettings}: the service URL, timeout, breaker, cluster, listener) come only from the Kyuubi
 * server: the {@code spark.sluice.*} entries of its {@code kyuubi-defaults.conf}, then its
 * environment ({@code SLUICE_*}). A session's conf is never used for them — otherwise any user
 * could point the server at a URL of their choosing and have its answer applied; a session may only
 * switch Sluice off for itself ({@code spark.sluice.tuner.enabled=false}). The answer's platform
 * additions are limited to the server's {@link PlatformAllowList}. One in-memory circuit breaker
 * per service URL is shared by all sessions of the server. Never throws: on any problem the overlay
 * is empty.
 */
public class SluiceSessionConfAdvisor implements SessionConfAdvisor {
  private static final Pattern SECRET = Pattern.compile("(?i)secret|password|token|access[.]key");

  private final Map<String, String> env;
  private final Map<String, String> serverConf;
  private final PlatformAllowList allowList;
  private final Function<TunerSettings, TunerClient> clients;
  private final Map<String, TunerClient> byUrl = new ConcurrentHashMap<>();

  /** The zero-argument constructor Kyuubi uses: the server's environment and defaults file. */
  public SluiceSessionConfAdvisor() {
    this(
        System.getenv(),
        serverConf(System.getenv()),
        PlatformAllowList.configuredOrNothing(
            System.getenv(), System.getProperty(PlatformAllowList.PROPERTY_FILE), System.err),
        null);
  }

  /**
   * For tests: a given server environment (no defaults file, default allow-list), and optionally
   * clients.
   */
  public SluiceSessionConfAdvisor(
      Map<String, String> env, Function<TunerSettings, TunerClient> clients) {
    this(env, Map.of(), PlatformAllowList.defaults(), clients);
  }

  /**
   * @param env the server's environment
   * @param serverConf the server's {@code spark.sluice.*} settings (they win over {@code env})
   * @param allowList what the answer's platform block may add
   * @param clients a client factory, or null for one breaker-guarded client per URL
   */
  public SluiceSessionConfAdvisor(
      Map<String, String> env,
      Map<String, String> serverConf,
      PlatformAllowList allowList,
      Function<TunerSettings, TunerClient> clients) {
    Map<String, String> e = new HashMap<>(env);
    e.remove("SLUICE_SUBMIT_URL");
    this.env = Map.copyOf(e);
    this.serverConf = Map.copyOf(serverConf);
    this.allowList = allowList;
    this.clients = clients;
  }

  private static Map<String, String> serverConf(Map<String, String> env) {
    try {
      return KyuubiServerConf.read(KyuubiServerConf.file(env));
    } catch (RuntimeException e) {
      System.err.println(
          "sluice: kyuubi advisor: " + e.getMessage() + "; using the environment only");
      return Map.of();
    }
  }

  @Override
  public Map<String, String> getConfOverlay(String user, Map<String, String> sessionConf) {
    try {
      Map<String, String> conf = sessionConf == null ? Map.of() : new HashMap<>(sessionConf);
      if (conf.containsKey(Injection.SUBMISSION_ID)) {
        return new HashMap<>();
      }
      if ("false".equalsIgnoreCase(conf.getOrDefault(TunerSettings.ENABLED, "").trim())) {
        return new HashMap<>();
      }
      TunerSettings settings = TunerSettings.resolve(serverConf, env);
      if (!settings.enabled() || settings.url() == null) {
        return new HashMap<>();
      }
      if (conf.containsKey(TunerSettings.URL)) {
        System.err.println(
            "sluice: kyuubi session of "
                + user
                + " sets "
                + TunerSettings.URL
                + "; ignored, the server's setting is used");
      }
      TunerClient client =
          clients != null
              ? clients.apply(settings)
              : byUrl.computeIfAbsent(
                  settings.url() + "|" + settings.timeout().toMillis(),
                  k -> memoryClient(settings));
      Map<String, String> sent = new LinkedHashMap<>();
      conf.forEach(
          (k, v) -> {
            if (k.startsWith("spark.") && !SECRET.matcher(k).find()) {
              sent.put(k, v);
            }
          });
      String appName =
          conf.getOrDefault("spark.app.name", conf.getOrDefault("kyuubi.session.name", "kyuubi"));
      Outcome outcome =
          client.ask(
              new SubmissionRequest(
                  settings.cluster(),
                  conf.get("spark.yarn.queue"),
                  user,
                  appName,
                  conf.get(JobKey.EXPLICIT_KEY),
                  sent));
      if (outcome.advice().isEmpty()) {
        System.err.println(
            "sluice: kyuubi session of " + user + ": " + outcome.note() + "; no overlay");
        return new HashMap<>();
      }
      Advice advice = outcome.advice().get();
      Injection injection =
          Injection.compute(
              conf,
              advice,
              settings.overrideUserConf(),
              new Injection.Listener(
                  settings.listenerJar(), settings.kafkaBootstrap(), settings.cluster()),
              null,
              allowList);
      if (!injection.platformRefused().isEmpty()) {
        System.err.println(
            "sluice: kyuubi session of "
                + user
                + ": platform additions refused by the allow-list ("
                + allowList.source()
                + "): "
                + injection.platformRefused());
      }
      Map<String, String> overlay = new HashMap<>(injection.confs());
      if (!injection.jars().isEmpty()) {
        overlay.put("spark.jars", Injection.appendJars(conf.get("spark.jars"), injection.jars()));
      }
      return overlay;
    } catch (Throwable t) {
      if (t instanceof VirtualMachineError vme && !(t instanceof OutOfMemoryError)) {
        throw vme;
      }
      return new HashMap<>();
    }
  }

  private static TunerClient memoryClient(TunerSettings s) {
    CircuitBreaker breaker =
        new CircuitBreaker(
            s.url().toString(),
            new CircuitBreaker.Settings(
                s.breakerFailures(), s.breakerOpenFor(), s.timeout().multipliedBy(2)),
            new CircuitBreaker.MemoryStore(),
            System::currentTimeMillis);
    return new TunerClient(s.url(), s.timeout(), breaker, AllowList.defaults());
  }
}
