package io.sluice.submit.plugin;

import io.sluice.contracts.api.SubmissionRequest;
import io.sluice.model.JobKey;
import io.sluice.rules.AllowList;
import io.sluice.submit.Injection;
import io.sluice.submit.client.Advice;
import io.sluice.submit.client.Outcome;
import io.sluice.submit.client.TunerClient;
import io.sluice.submit.client.TunerSettings;
import io.sluice.submit.platform.PlatformAllowList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkContext;
import org.apache.spark.api.plugin.DriverPlugin;
import org.apache.spark.api.plugin.ExecutorPlugin;
import org.apache.spark.api.plugin.PluginContext;
import org.apache.spark.api.plugin.SparkPlugin;
import scala.Tuple2;

/**
 * {@code spark.plugins=io.sluice.submit.plugin.SluiceTuningPlugin}: for applications that were not
 * submitted through {@code sluice-submit} (no {@value Injection#SUBMISSION_ID} in the conf), asks
 * tuner-service while the driver starts and sets the recommended <em>runtime SQL</em> confs ({@link
 * AllowList.Key#runtime()}) that the user did not set into the driver's SparkConf. The plugin is
 * initialised inside SparkContext's constructor, before the environment is posted to listeners and
 * before any SparkSession exists, so the values reach the event log and every SQL session (a
 * session's SQLConf starts from the SparkContext's conf). Core confs (memory, shuffle I/O, codecs)
 * cannot change at this point and are never applied. Markers are set as {@code sluice-submit} sets
 * them. Never fails the driver: any problem leaves the conf untouched.
 */
public class SluiceTuningPlugin implements SparkPlugin {
  @Override
  public DriverPlugin driverPlugin() {
    return new Driver(System.getenv(), TunerClient::fromSettings);
  }

  @Override
  public ExecutorPlugin executorPlugin() {
    return null;
  }

  /** The driver side; its {@link #apply} is usable without a SparkContext (tests). */
  public static final class Driver implements DriverPlugin {
    private static final Pattern SECRET = Pattern.compile("(?i)secret|password|token|access[.]key");
    private final Map<String, String> env;
    private final Function<TunerSettings, TunerClient> clients;

    public Driver(Map<String, String> env, Function<TunerSettings, TunerClient> clients) {
      this.env = env;
      this.clients = clients;
    }

    @Override
    public Map<String, String> init(SparkContext sc, PluginContext ctx) {
      try {
        SparkConf conf = ctx.conf();
        Map<String, String> current = new LinkedHashMap<>();
        for (Tuple2<String, String> t : conf.getAll()) {
          current.put(t._1(), t._2());
        }
        Map<String, String> toSet = apply(current, sc.sparkUser(), System.err);
        toSet.forEach(conf::set);
      } catch (Throwable t) {
        if (t instanceof VirtualMachineError vme && !(t instanceof OutOfMemoryError)) {
          throw vme;
        }
        System.err.println("sluice: driver plugin left the conf unchanged (" + t + ")");
      }
      return Collections.emptyMap();
    }

    /**
     * The confs to set on a driver whose conf is {@code conf}; empty when nothing applies. Never
     * throws.
     */
    public Map<String, String> apply(
        Map<String, String> conf, String user, java.io.PrintStream err) {
      try {
        if (conf.containsKey(Injection.SUBMISSION_ID)) {
          return Map.of();
        }
        TunerSettings settings = TunerSettings.resolve(conf, env);
        if (!settings.enabled() || settings.url() == null) {
          return Map.of();
        }
        Map<String, String> sent = new LinkedHashMap<>();
        conf.forEach(
            (k, v) -> {
              if (!SECRET.matcher(k).find()) {
                sent.put(k, v);
              }
            });
        Outcome outcome =
            clients
                .apply(settings)
                .ask(
                    new SubmissionRequest(
                        settings.cluster(),
                        conf.get("spark.yarn.queue"),
                        user,
                        conf.get("spark.app.name"),
                        conf.get(JobKey.EXPLICIT_KEY),
                        sent));
        if (outcome.advice().isEmpty()) {
          err.println(
              "sluice: driver plugin: "
                  + outcome.note()
                  + " after "
                  + outcome.elapsedMs()
                  + " ms; conf unchanged");
          return Map.of();
        }
        Advice advice = outcome.advice().get();
        AllowList allow = AllowList.defaults();
        Injection injection =
            Injection.compute(
                conf,
                advice,
                settings.overrideUserConf(),
                null,
                k -> allow.key(k).map(AllowList.Key::runtime).orElse(false),
                PlatformAllowList.configuredOrNothing(
                    env, System.getProperty(PlatformAllowList.PROPERTY_FILE), err));
        err.println(
            injection.summary(advice).replace("sluice: ", "sluice: driver plugin: ")
                + " (runtime SQL confs only, "
                + outcome.elapsedMs()
                + " ms)");
        return injection.confs();
      } catch (Throwable t) {
        if (t instanceof VirtualMachineError vme && !(t instanceof OutOfMemoryError)) {
          throw vme;
        }
        err.println("sluice: driver plugin left the conf unchanged (" + t + ")");
        return Map.of();
      }
    }
  }
}
