package io.sluice.submit.kyuubi;

import io.sluice.model.JobKey;
import io.sluice.rules.AllowList;
import io.sluice.submit.Injection;
import io.sluice.submit.client.Advice;
import io.sluice.submit.client.CircuitBreaker;
import io.sluice.submit.client.Outcome;
import io.sluice.submit.client.SubmissionRequest;
import io.sluice.submit.client.TunerClient;
import io.sluice.submit.client.TunerSettings;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.apache.kyuubi.plugin.SessionConfAdvisor;

/**
 * Kyuubi {@code kyuubi.session.conf.advisor=io.sluice.submit.kyuubi.SluiceSessionConfAdvisor}: asks tuner-service
 * for the session's engine and returns the overlay with Sluice's markers (and the listener, when configured) — the
 * same answer {@code sluice-submit} would add. Settings come from the session conf and the Kyuubi server's
 * environment ({@link TunerSettings}). One in-memory circuit breaker per service URL is shared by all sessions of
 * the server. Never throws: on any problem the overlay is empty.
 */
public class SluiceSessionConfAdvisor implements SessionConfAdvisor {
  private static final Pattern SECRET = Pattern.compile("(?i)secret|password|token|access[.]key");

  private final Map<String, String> env;
  private final Function<TunerSettings, TunerClient> clients;
  private final Map<String, TunerClient> byUrl = new ConcurrentHashMap<>();

  /** The zero-argument constructor Kyuubi uses. */
  public SluiceSessionConfAdvisor() {
    this(System.getenv(), null);
  }

  /** For tests: a given environment, and optionally a client factory. */
  public SluiceSessionConfAdvisor(Map<String, String> env, Function<TunerSettings, TunerClient> clients) {
    this.env = Map.copyOf(env);
    this.clients = clients;
  }

  @Override
  public Map<String, String> getConfOverlay(String user, Map<String, String> sessionConf) {
    try {
      Map<String, String> conf = sessionConf == null ? Map.of() : new HashMap<>(sessionConf);
      if (conf.containsKey(Injection.SUBMISSION_ID)) {
        return new HashMap<>();
      }
      TunerSettings settings = TunerSettings.resolve(conf, env);
      if (!settings.enabled() || settings.url() == null) {
        return new HashMap<>();
      }
      TunerClient client = clients != null ? clients.apply(settings)
          : byUrl.computeIfAbsent(settings.url() + "|" + settings.timeout().toMillis(), k -> memoryClient(settings));
      Map<String, String> sent = new LinkedHashMap<>();
      conf.forEach((k, v) -> {
        if (k.startsWith("spark.") && !SECRET.matcher(k).find()) {
          sent.put(k, v);
        }
      });
      String appName = conf.getOrDefault("spark.app.name", conf.getOrDefault("kyuubi.session.name", "kyuubi"));
      Outcome outcome = client.ask(new SubmissionRequest(settings.cluster(), conf.get("spark.yarn.queue"), user,
          appName, conf.get(JobKey.EXPLICIT_KEY), sent));
      if (outcome.advice().isEmpty()) {
        System.err.println("sluice: kyuubi session of " + user + ": " + outcome.note() + "; no overlay");
        return new HashMap<>();
      }
      Advice advice = outcome.advice().get();
      Injection injection = Injection.compute(conf, advice, settings.overrideUserConf(),
          new Injection.Listener(settings.listenerJar(), settings.kafkaBootstrap(), settings.cluster()), null);
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
    CircuitBreaker breaker = new CircuitBreaker(s.url().toString(),
        new CircuitBreaker.Settings(s.breakerFailures(), s.breakerOpenFor(), s.timeout().multipliedBy(2)),
        new CircuitBreaker.MemoryStore(), System::currentTimeMillis);
    return new TunerClient(s.url(), s.timeout(), breaker, AllowList.defaults());
  }
}
