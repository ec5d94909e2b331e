package io.sluice.tuner;

import io.sluice.model.Severity;
import io.sluice.rules.RuleConfig;
import io.sluice.tuner.policy.PolicyConfig;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * Every {@code sluice.tuner.*} property with its default. Policy values are checked again by {@link PolicyConfig}
 * and the rule passthrough by the {@link io.sluice.rules.RuleEngine} (both fail start-up naming the value).
 */
@ConfigurationProperties("sluice.tuner")
@Validated
public class TunerProperties {
  /**
   * JDBC URL of the history store: {@code jdbc:h2:file:...}, {@code jdbc:h2:tcp://...} (the local stack's store
   * server) or {@code jdbc:clickhouse:...}. The decision log and the push-tier rules live in the same database
   * (for ClickHouse: {@code deploy/clickhouse/V5__tuner_control.sql}). Default {@code jdbc:h2:file:./.sluice/history/sluice-history}.
   */
  @NotBlank
  private String storeUrl = "jdbc:h2:file:./.sluice/history/sluice-history";

  /** False: every job is DISABLED (empty overlays). Default true. */
  private boolean enabled = true;

  /** How many of a job's newest runs form its portrait. Default 20. */
  @Min(1)
  @Max(200)
  private int portraitSize = 20;

  /** At most this many keys change per iteration (K). Default 2. */
  @Min(1)
  @Max(10)
  private int maxChangesPerIteration = PolicyConfig.DEFAULT_MAX_CHANGES;

  /** A numeric value moves at most by this factor from the value in force per iteration. Default 4. */
  @DecimalMin(value = "1.0", inclusive = false)
  @DecimalMax("100")
  private double maxStepFactor = PolicyConfig.DEFAULT_MAX_STEP_FACTOR;

  /**
   * A figure (or wall time) counts as moved only if it changed by at least this fraction. Default 0.05.
   */
  @DecimalMin("0")
  @DecimalMax(value = "1", inclusive = false)
  private double minImprovement = PolicyConfig.DEFAULT_MIN_IMPROVEMENT;

  /** Blocked-time differences below this many ms count as no change. Default 100. */
  @Min(0)
  private long blockedNoiseMs = PolicyConfig.DEFAULT_BLOCKED_NOISE_MS;

  /** Wall-time differences below this many ms count as no change. Default 500. */
  @Min(0)
  private long wallNoiseMs = PolicyConfig.DEFAULT_WALL_NOISE_MS;

  /**
   * Relative run-to-run spread of wall time assumed for a job until its own is measured from repeated runs with one
   * overlay. Default 0.2.
   */
  @DecimalMin("0")
  @DecimalMax("1")
  private double wallNoiseBand = PolicyConfig.DEFAULT_WALL_NOISE_BAND;

  /** A job whose last this many launches in a row failed before the application ran is frozen. Default 3. */
  @Min(1)
  private int maxLaunchFailures = PolicyConfig.DEFAULT_MAX_LAUNCH_FAILURES;

  /** Input size drift (fraction of the median since the last re-open) that re-opens a job. Default 0.5. */
  @DecimalMin(value = "0", inclusive = false)
  private double inputDriftThreshold = PolicyConfig.DEFAULT_INPUT_DRIFT;

  /** Diagnoses below this severity do not drive changes. Default MODERATE ("above LOW"). */
  @NotNull
  private Severity minSeverity = Severity.MODERATE;

  /** A key the user set explicitly is never overridden. Default true. */
  private boolean userKeysWin = true;

  /**
   * Re-run the rules (with {@link #rules}) over the stored runs instead of trusting the diagnoses stored with them.
   * Default true.
   */
  private boolean rediagnose = true;

  /**
   * Rule configuration passthrough: {@code sluice.tuner.rules.[SHUFFLE_SMALL_BLOCKS.enabled]=false} becomes
   * {@code sluice.rules.SHUFFLE_SMALL_BLOCKS.enabled=false} (see docs/rules.md). Default empty.
   */
  private Map<String, String> rules = new LinkedHashMap<>();

  /** Time limit of the store work behind one submission; past it the answer is an empty overlay. Default 200ms. */
  @NotNull
  private Duration submissionTimeout = Duration.ofMillis(200);

  /**
   * Breaker warm-up: for this long after the store first answered, the store's circuit breaker records nothing, so a
   * cold JVM's time-outs do not open it and serve empty overlays to every submission for its open period; each slow
   * call still fails open within {@code submissionTimeout}. A store down or hung from the start still opens it.
   * 0 turns the warm-up off. Default 30s.
   */
  @NotNull
  private Duration breakerWarmUp = Duration.ofSeconds(30);

  /** Time limit of the store work behind history, recommendation and freeze calls. Default 5s. */
  @NotNull
  private Duration readTimeout = Duration.ofSeconds(5);

  /** Threads that run store calls (a hung store holds at most these). Default 4. */
  @Min(1)
  @Max(64)
  private int storeThreads = 4;

  /** Store calls that may wait for a thread; more are answered with the fallback at once. Default 64. */
  @Min(0)
  @Max(10_000)
  private int storeQueue = 64;

  /**
   * Replays of jobs kept for reads (the UI's job page, history and recommendation views), bounded by the runs they hold
   * together; the least recently read go first. 0 turns the cache off. Default 1000.
   */
  @Min(0)
  @Max(1_000_000)
  private int replayCacheRuns = 1_000;

  public PolicyConfig policyConfig() {
    return PolicyConfig.builder().maxChangesPerIteration(maxChangesPerIteration).maxStepFactor(maxStepFactor)
        .minImprovement(minImprovement).blockedNoiseMs(blockedNoiseMs).wallNoiseMs(wallNoiseMs)
        .wallNoiseBand(wallNoiseBand).maxLaunchFailures(maxLaunchFailures).inputDriftThreshold(inputDriftThreshold).minSeverity(minSeverity).userKeysWin(userKeysWin).build();
  }

  /** {@link #rules} as a {@link RuleConfig}; the rule id part is upper-cased (property keys may be lower-cased). */
  public RuleConfig ruleConfig() {
    Map<String, String> m = new LinkedHashMap<>();
    rules.forEach((k, v) -> {
      int dot = k.indexOf('.');
      String key = dot < 0 ? k : k.substring(0, dot).toUpperCase(Locale.ROOT) + k.substring(dot);
      m.put(RuleConfig.PREFIX + key, v);
    });
    return RuleConfig.of(m);
  }

  public String getStoreUrl() {
    return storeUrl;
  }

  public void setStoreUrl(String storeUrl) {
    this.storeUrl = storeUrl;
  }

  public boolean isEnabled() {
    return enabled;
  }

  public void setEnabled(boolean enabled) {
    this.enabled = enabled;
  }

  public int getPortraitSize() {
    return portraitSize;
  }

  public void setPortraitSize(int portraitSize) {
    this.portraitSize = portraitSize;
  }

  public int getMaxChangesPerIteration() {
    return maxChangesPerIteration;
  }

  public void setMaxChangesPerIteration(int v) {
    this.maxChangesPerIteration = v;
  }

  public double getMaxStepFactor() {
    return maxStepFactor;
  }

  public void setMaxStepFactor(double maxStepFactor) {
    this.maxStepFactor = maxStepFactor;
  }

  public double getMinImprovement() {
    return minImprovement;
  }

  public void setMinImprovement(double minImprovement) {
    this.minImprovement = minImprovement;
  }

  public long getBlockedNoiseMs() {
    return blockedNoiseMs;
  }

  public void setBlockedNoiseMs(long blockedNoiseMs) {
    this.blockedNoiseMs = blockedNoiseMs;
  }

  public long getWallNoiseMs() {
    return wallNoiseMs;
  }

  public void setWallNoiseMs(long wallNoiseMs) {
    this.wallNoiseMs = wallNoiseMs;
  }

  public int getMaxLaunchFailures() {
    return maxLaunchFailures;
  }

  public void setMaxLaunchFailures(int maxLaunchFailures) {
    this.maxLaunchFailures = maxLaunchFailures;
  }

  public double getWallNoiseBand() {
    return wallNoiseBand;
  }

  public void setWallNoiseBand(double wallNoiseBand) {
    this.wallNoiseBand = wallNoiseBand;
  }

  public double getInputDriftThreshold() {
    return inputDriftThreshold;
  }

  public void setInputDriftThreshold(double inputDriftThreshold) {
    this.inputDriftThreshold = inputDriftThreshold;
  }

  public Severity getMinSeverity() {
    return minSeverity;
  }

  public void setMinSeverity(Severity minSeverity) {
    this.minSeverity = minSeverity;
  }

  public boolean isUserKeysWin() {
    return userKeysWin;
  }

  public void setUserKeysWin(boolean userKeysWin) {
    this.userKeysWin = userKeysWin;
  }

  public boolean isRediagnose() {
    return rediagnose;
  }

  public void setRediagnose(boolean rediagnose) {
    this.rediagnose = rediagnose;
  }

  public Map<String, String> getRules() {
    return rules;
  }

  public void setRules(Map<String, String> rules) {
    this.rules = rules;
  }

  public Duration getBreakerWarmUp() {
    return breakerWarmUp;
  }

  public void setBreakerWarmUp(Duration breakerWarmUp) {
    this.breakerWarmUp = breakerWarmUp;
  }

  public Duration getSubmissionTimeout() {
    return submissionTimeout;
  }

  public void setSubmissionTimeout(Duration submissionTimeout) {
    this.submissionTimeout = submissionTimeout;
  }

  public Duration getReadTimeout() {
    return readTimeout;
  }

  public void setReadTimeout(Duration readTimeout) {
    this.readTimeout = readTimeout;
  }

  public int getStoreThreads() {
    return storeThreads;
  }

  public void setStoreThreads(int storeThreads) {
    this.storeThreads = storeThreads;
  }

  public int getStoreQueue() {
    return storeQueue;
  }

  public void setStoreQueue(int storeQueue) {
    this.storeQueue = storeQueue;
  }

  public int getReplayCacheRuns() {
    return replayCacheRuns;
  }

  public void setReplayCacheRuns(int replayCacheRuns) {
    this.replayCacheRuns = replayCacheRuns;
  }
}
