package io.sluice.tuner.throttle;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * Every {@code sluice.throttle.*} property of tuner-service (the ESS throttle's priority map, docs/throttle.md) with its
 * default. Priorities are whole numbers in {@value #MIN_PRIORITY}..{@value #MAX_PRIORITY}; higher gets more of an
 * abnormal ESS node (the gate's {@code sluice.throttle.priority.weights} map them to weights). Job keys contain
 * {@code /}, so they are written in brackets: {@code sluice.throttle.jobs.[prod/etl/alice/nightly]=4}.
 */
@ConfigurationProperties("sluice.throttle")
@Validated
public class ThrottleProperties {
  public static final int MIN_PRIORITY = -1000;
  public static final int MAX_PRIORITY = 1000;

  /** False: no app reporter or shim is added to submissions and the priority map stays empty. Default true. */
  private boolean enabled = true;

  /**
   * Priority of submissions whose queue and job are not listed, also sent to the gates as {@code defaultPriority}
   * (keep it equal to the gates' {@code sluice.throttle.priority.default}). Default 2.
   */
  @Min(MIN_PRIORITY)
  @Max(MAX_PRIORITY)
  private int defaultPriority = 2;

  /** Queue → priority ({@code sluice.throttle.queues.etl=1}). A job override wins. Default empty. */
  private Map<String, Integer> queues = new LinkedHashMap<>();

  /** Job key → priority, overriding its queue's ({@code sluice.throttle.jobs.[job key]=4}). Default empty. */
  private Map<String, Integer> jobs = new LinkedHashMap<>();

  /**
   * Queues whose submissions get the client shim ({@code io.sluice.throttle.shim.SluiceShimPlugin}, which honours
   * the gate's SLEEP directives) — only when {@link #shimJar} is set. Default empty.
   */
  private List<String> shimQueues = new ArrayList<>();

  /** Path or URL of the shim jar (sluice-throttle-shim) added to shim queues' {@code spark.jars}. Default none. */
  private String shimJar;

  /**
   * Path or URL of the tuner client jar (sluice-tuner-client-*-all.jar) that carries the app reporter, the driver
   * plugin that tells this service which application a submission became. Without it no app is ever registered
   * and the priority map stays empty. The push tier uses the same plugin to report which tier a run really used
   * (added to every job admitted to a push tier, also with {@code sluice.throttle.enabled=false}). Default none.
   */
  private String reporterJar;

  /**
   * The base URL drivers use to reach this service, added as {@code spark.sluice.tuner.url} (without it the reporter
   * uses the driver's own {@code spark.sluice.tuner.url} / {@code SLUICE_TUNER_URL}). Default none.
   */
  private String reportUrl;

  /** A registered application leaves the priority map this long after it was reported. Default 24h. */
  @NotNull
  private Duration appTtl = Duration.ofHours(24);

  /** A submission whose application was not reported within this time is forgotten. Default 1h. */
  @NotNull
  private Duration submissionTtl = Duration.ofHours(1);

  /** At most this many live applications and as many pending submissions are kept (oldest go first). Default 10000. */
  @Min(1)
  @Max(1_000_000)
  private int maxApps = 10_000;

  /** Fails start-up naming the first priority outside the bounds. */
  void check() {
    checkMap("sluice.throttle.queues.", queues);
    checkMap("sluice.throttle.jobs.", jobs);
    if (appTtl.isNegative() || appTtl.isZero()) {
      throw new IllegalArgumentException("sluice.throttle.app-ttl must be positive, was " + appTtl);
    }
    if (submissionTtl.isNegative() || submissionTtl.isZero()) {
      throw new IllegalArgumentException("sluice.throttle.submission-ttl must be positive, was " + submissionTtl);
    }
  }

  private static void checkMap(String prefix, Map<String, Integer> m) {
    m.forEach((k, v) -> {
      if (v == null || v < MIN_PRIORITY || v > MAX_PRIORITY) {
        throw new IllegalArgumentException(prefix + "[" + k + "] must be in " + MIN_PRIORITY + ".." + MAX_PRIORITY
            + ", was " + v);
      }
    });
  }

  public boolean isEnabled() {
    return enabled;
  }

  public void setEnabled(boolean enabled) {
    this.enabled = enabled;
  }

  public int getDefaultPriority() {
    return defaultPriority;
  }

  public void setDefaultPriority(int defaultPriority) {
    this.defaultPriority = defaultPriority;
  }

  public Map<String, Integer> getQueues() {
    return queues;
  }

  public void setQueues(Map<String, Integer> queues) {
    this.queues = queues;
  }

  public Map<String, Integer> getJobs() {
    return jobs;
  }

  public void setJobs(Map<String, Integer> jobs) {
    this.jobs = jobs;
  }

  public List<String> getShimQueues() {
    return shimQueues;
  }

  public void setShimQueues(List<String> shimQueues) {
    this.shimQueues = shimQueues;
  }

  public String getShimJar() {
    return shimJar;
  }

  public void setShimJar(String shimJar) {
    this.shimJar = shimJar;
  }

  public String getReporterJar() {
    return reporterJar;
  }

  public void setReporterJar(String reporterJar) {
    this.reporterJar = reporterJar;
  }

  public String getReportUrl() {
    return reportUrl;
  }

  public void setReportUrl(String reportUrl) {
    this.reportUrl = reportUrl;
  }

  public Duration getAppTtl() {
    return appTtl;
  }

  public void setAppTtl(Duration appTtl) {
    this.appTtl = appTtl;
  }

  public Duration getSubmissionTtl() {
    return submissionTtl;
  }

  public void setSubmissionTtl(Duration submissionTtl) {
    this.submissionTtl = submissionTtl;
  }

  public int getMaxApps() {
    return maxApps;
  }

  public void setMaxApps(int maxApps) {
    this.maxApps = maxApps;
  }
}
