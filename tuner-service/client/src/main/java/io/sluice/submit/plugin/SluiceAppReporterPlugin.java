package io.sluice.submit.plugin;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.contracts.api.RunReportRequest;
import io.sluice.submit.Injection;
import io.sluice.submit.client.TunerSettings;
import io.sluice.submit.client.TunerToken;
import io.sluice.submit.outcome.OutcomeReports;
import io.sluice.submit.outcome.OutcomeSender;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.SparkConf;
import org.apache.spark.api.plugin.DriverPlugin;
import org.apache.spark.api.plugin.ExecutorPlugin;
import org.apache.spark.api.plugin.PluginContext;
import org.apache.spark.api.plugin.SparkPlugin;
import scala.Tuple2;

/**
 * {@code spark.plugins=io.sluice.submit.plugin.SluiceAppReporterPlugin} (added by tuner-service's
 * platform additions to submissions through {@code sluice-submit}): tells tuner-service which
 * application a submission became, {@code POST <url>/api/v1/throttle/apps
 * {"appId":..,"submissionId":..}}, so the ESS throttle's priority map knows the running
 * application. The application id is not known yet when {@link DriverPlugin#init} runs (Spark 3.5
 * creates plugins before the task scheduler, which assigns it); Spark calls {@link
 * DriverPlugin#registerMetrics} with it right after. The report is sent from a daemon thread with a
 * short deadline: it never fails the driver, delays it only at its stop (a report still in flight
 * gets until its deadline, so a short application's report is not cut off by the JVM's exit), and
 * any problem is one line on stderr. URL: {@value TunerSettings#URL}, else {@code
 * SLUICE_TUNER_URL}; submission: {@value Injection#SUBMISSION_ID}; without either nothing is sent.
 *
 * <p>For a job routed to a push tier ({@code spark.sluice.tier}), it also reports the run's tier
 * outcome, {@code POST <url>/api/v1/tiers/outcomes}: requested tier, the tier that really runs, the
 * fallback reason and detail, the attempt (Spark's application attempt id, 1 without one). The
 * delegating shuffle manager of {@code fallback/} has written them into the driver's conf before
 * any plugin starts (Spark 3.5 creates SparkEnv, and so the shuffle manager, before the plugins).
 * Same rules: a daemon thread, a deadline of at least 3 s, fail open.
 */
public class SluiceAppReporterPlugin implements SparkPlugin {
  /** The path under the tuner-service base URL. */
  public static final String PATH = "/api/v1/throttle/apps";

  /**
   * Shortest deadline of a report (connect + answer); a longer client timeout ({@code
   * SLUICE_TUNER_TIMEOUT_MS}) wins.
   */
  public static final Duration TIMEOUT = Duration.ofSeconds(3);

  /**
   * Spark's own key for the application attempt (set by SparkContext once the task scheduler has
   * started).
   */
  public static final String APP_ATTEMPT_ID = "spark.app.attempt.id";

  private static final ObjectMapper JSON = new ObjectMapper();

  @Override
  public DriverPlugin driverPlugin() {
    return new Driver(System.getenv(), System.err);
  }

  @Override
  public ExecutorPlugin executorPlugin() {
    return null;
  }

  /** The driver side. */
  public static final class Driver implements DriverPlugin {
    private final Map<String, String> env;
    private final PrintStream err;
    private volatile Map<String, String> conf = Map.of();
    private volatile org.apache.spark.SparkContext sc;
    private volatile Thread sender;
    private volatile Thread tierSender;
    private volatile Duration joinBudget = TIMEOUT.plusSeconds(1);

    public Driver(Map<String, String> env, PrintStream err) {
      this.env = env;
      this.err = err;
    }

    @Override
    public Map<String, String> init(org.apache.spark.SparkContext sc, PluginContext ctx) {
      try {
        conf = snapshot(ctx.conf());
        this.sc = sc;
      } catch (Throwable t) {
        rethrowFatal(t);
      }
      return Map.of();
    }

    @Override
    public void registerMetrics(String appId, PluginContext ctx) {
      report(appId, conf);
      // the conf as it is now: the shuffle manager's decision is in it whether SparkEnv created the
      // manager before
      // the plugins (Spark 3.5) or after them (Spark 4), and so is the attempt id
      // (spark.app.attempt.id)
      Map<String, String> now = conf;
      try {
        now = snapshot(ctx.conf());
      } catch (Throwable t) {
        rethrowFatal(t);
      }
      reportTier(appId, attempt(attemptId(now)), now);
    }

    private static Map<String, String> snapshot(SparkConf c) {
      Map<String, String> m = new LinkedHashMap<>();
      for (Tuple2<String, String> t : c.getAll()) {
        m.put(t._1(), t._2());
      }
      return m;
    }

    /**
     * The application attempt as the driver knows it once the scheduler runs: {@code
     * spark.app.attempt.id} (Spark sets it from the cluster manager's attempt), {@code
     * spark.yarn.app.attemptId}, or SparkContext's.
     */
    private String attemptId(Map<String, String> conf) {
      String id =
          conf.getOrDefault(
              APP_ATTEMPT_ID, conf.get(io.sluice.fallback.conf.TierKeys.YARN_ATTEMPT_ID));
      try {
        if (id == null
            && sc != null
            && sc.applicationAttemptId() != null
            && sc.applicationAttemptId().isDefined()) {
          id = sc.applicationAttemptId().get();
        }
      } catch (RuntimeException e) {
        // not known: attempt 1
      }
      return id;
    }

    /** A YARN attempt id ("1", "2"), 1 when absent or malformed. */
    static int attempt(String id) {
      if (id == null || !id.trim().matches("\\d{1,3}")) {
        return 1;
      }
      return Math.max(1, Integer.parseInt(id.trim()));
    }

    /**
     * For a job routed to a push tier: starts the report of which tier really runs and why it fell
     * back ({@link OutcomeReports#driver}, {@code POST <url>/api/v1/tiers/outcomes}) and returns at
     * once; null when there is nothing to report or no URL. Never throws; the result is one line on
     * stderr.
     */
    public Thread reportTier(String appId, int attempt, Map<String, String> conf) {
      try {
        Optional<RunReportRequest> report = OutcomeReports.driver(conf, appId, attempt);
        if (report.isEmpty()) {
          return null;
        }
        TunerSettings settings = TunerSettings.resolve(conf, env);
        if (!settings.enabled() || settings.url() == null) {
          return null;
        }
        Duration deadline = deadline(settings);
        joinBudget = deadline.plusSeconds(1);
        OutcomeSender out = new OutcomeSender(settings.url(), deadline);
        tierSender =
            daemon(
                "sluice-tier-reporter",
                () ->
                    err.println("sluice: app reporter: " + appId + ": " + out.send(report.get())));
        return tierSender;
      } catch (Throwable t) {
        rethrowFatal(t);
        err.println("sluice: app reporter: tier outcome not reported (" + t + ")");
        return null;
      }
    }

    /** A report's deadline: the client's timeout, and never less than {@link #TIMEOUT}. */
    static Duration deadline(TunerSettings settings) {
      return settings.timeout() != null && settings.timeout().compareTo(TIMEOUT) > 0
          ? settings.timeout()
          : TIMEOUT;
    }

    /**
     * The driver is stopping: a report still in flight gets until its own deadline to finish, so
     * that a short application's report is not cut off by the JVM's exit. Never waits longer than
     * the reports' deadlines.
     */
    @Override
    public void shutdown() {
      for (Thread t : new Thread[] {sender, tierSender}) {
        if (t == null) {
          continue;
        }
        try {
          t.join(joinBudget.toMillis());
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
      }
    }

    private static Thread daemon(String name, Runnable work) {
      Thread t = new Thread(work, name);
      t.setDaemon(true);
      t.start();
      return t;
    }

    /** The thread of the last tier report (tests). */
    public Thread tierSender() {
      return tierSender;
    }

    /**
     * Starts the report of {@code appId} for the conf's submission and returns at once. Never
     * throws.
     */
    public Thread report(String appId, Map<String, String> conf) {
      try {
        String submissionId = conf.get(Injection.SUBMISSION_ID);
        if (appId == null || appId.isBlank() || submissionId == null || submissionId.isBlank()) {
          return null;
        }
        TunerSettings settings = TunerSettings.resolve(conf, env);
        if (!settings.enabled() || settings.url() == null) {
          return null;
        }
        String base = settings.url().toString();
        URI uri =
            URI.create((base.endsWith("/") ? base.substring(0, base.length() - 1) : base) + PATH);
        Map<String, String> payload = new LinkedHashMap<>();
        payload.put("appId", appId);
        payload.put("submissionId", submissionId);
        String body = JSON.writeValueAsString(payload);
        Duration deadline = deadline(settings);
        joinBudget = deadline.plusSeconds(1);
        sender =
            daemon("sluice-app-reporter", () -> send(uri, body, appId, submissionId, deadline));
        return sender;
      } catch (Throwable t) {
        rethrowFatal(t);
        err.println("sluice: app reporter: not reported (" + t + ")");
        return null;
      }
    }

    private void send(URI uri, String body, String appId, String submissionId, Duration deadline) {
      try {
        HttpClient http =
            HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(deadline)
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
        HttpRequest req =
            TunerToken.authorize(HttpRequest.newBuilder(uri))
                .timeout(deadline)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build();
        HttpResponse<String> r = http.send(req, HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() == 200 || r.statusCode() == 201) {
          err.println("sluice: app reporter: " + appId + " reported as submission " + submissionId);
        } else {
          err.println(
              "sluice: app reporter: "
                  + uri
                  + " answered HTTP "
                  + r.statusCode()
                  + " for "
                  + appId
                  + "; the ESS throttle gives it the default priority");
        }
      } catch (Throwable t) {
        rethrowFatal(t);
        err.println(
            "sluice: app reporter: "
                + appId
                + " not reported ("
                + t.getClass().getSimpleName()
                + ": "
                + t.getMessage()
                + "); the ESS throttle gives it the default priority");
      }
    }

    /** The thread of the last report (tests). */
    public Thread sender() {
      return sender;
    }

    private static void rethrowFatal(Throwable t) {
      if (t instanceof VirtualMachineError vme && !(t instanceof OutOfMemoryError)) {
        throw vme;
      }
    }
  }
}
