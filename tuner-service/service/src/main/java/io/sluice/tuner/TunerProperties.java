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
import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Every {@code sluice.tuner.*} property with its default. Policy values are checked again by {@link
 * PolicyConfig} and the rule passthrough by the {@link io.sluice.rules.RuleEngine} (both fail
 * start-up naming the value).
 *
 * @param storeUrl JDBC URL of the history store: {@code jdbc:h2:file:...}, {@code
 *     jdbc:h2:tcp://...} (the local stack's store server) or {@code jdbc:clickhouse:...}. The
 *     decision log and the push-tier rules live in the same database (for ClickHouse: {@code
 *     deploy/clickhouse/V5__tuner_control.sql}). Default {@code
 *     jdbc:h2:file:./.sluice/history/sluice-history}.
 * @param enabled False: every job is DISABLED (empty overlays). Default true.
 * @param portraitSize How many of a job's newest runs form its portrait. Default 20.
 * @param maxChangesPerIteration At most this many keys change per iteration (K). Default 2.
 * @param maxStepFactor A numeric value moves at most by this factor from the value in force per
 *     iteration; by its square after a kept step the same way that moved a figure in proportion.
 *     Default 4.
 * @param minImprovement A figure (or wall time) counts as moved only if it changed by at least this
 *     fraction. Default 0.05.
 * @param blockedNoiseMs Blocked-time differences below this many ms count as no change. Default
 *     100.
 * @param wallNoiseMs Wall-time differences below this many ms count as no change. Default 500.
 * @param wallNoiseBand Relative run-to-run spread of wall time assumed for a job until its own is
 *     measured from repeated runs with one overlay. Default 0.2.
 * @param maxLaunchFailures A job whose last this many launches in a row failed before the
 *     application ran is frozen. Default 3.
 * @param inputDriftThreshold Input size drift (fraction of the median since the last re-open) that
 *     re-opens a job. Default 0.5.
 * @param minSeverity Diagnoses below this severity do not drive changes. Default MODERATE ("above
 *     LOW").
 * @param userKeysWin A key the user set explicitly is never overridden. Default true.
 * @param rediagnose Re-run the rules (with {@code rules}) over the stored runs instead of trusting
 *     the diagnoses stored with them. Default true.
 * @param rules Rule configuration passthrough: {@code
 *     sluice.tuner.rules.[SHUFFLE_SMALL_BLOCKS.enabled]=false} becomes {@code
 *     sluice.rules.SHUFFLE_SMALL_BLOCKS.enabled=false} (see docs/rules.md). Default empty.
 * @param submissionTimeout Time limit of the store work behind one submission; past it the answer
 *     is an empty overlay. Default 200ms.
 * @param submissionQueueWait How long a submission's store call may wait for a free store thread
 *     while the store answers other calls (a burst, or a JVM just restarted and still compiling the
 *     store path); its work then gets {@code submissionTimeout} from when it starts. A store that
 *     answers nothing, or is slow itself, still gets only {@code submissionTimeout} in all. Keep it
 *     plus {@code submissionTimeout} under the clients' own timeout ({@code
 *     spark.sluice.tuner.timeoutMs}, default 1,500 ms), or they fail open first. 0 (or any value up
 *     to {@code submissionTimeout}): waiting and work share the one {@code submissionTimeout}.
 *     Default 800ms.
 * @param breakerWarmUp Breaker warm-up: for this long after the store first answered, the store's
 *     circuit breaker records nothing, so a cold JVM's time-outs do not open it and serve empty
 *     overlays to every submission for its open period; each slow call still fails open within
 *     {@code submissionTimeout}. A store down or hung from the start still opens it. 0 turns the
 *     warm-up off. Default 30s.
 * @param submissionWarmUp Longest warm-up of the submission path before the service reports ready:
 *     once the store has answered, the most recent jobs are replayed read-only (the submission's
 *     reads, rules and policy; nothing recorded) until a round of replays all finish within a
 *     quarter of {@code submissionTimeout}, or until this has passed. A freshly started JVM
 *     otherwise compiles that path on its first submissions, and those that run past {@code
 *     submissionTimeout} before any job is cached fail open with an empty overlay. A store that
 *     fails during the warm-up only shortens it. 0 turns the warm-up off. Default 0 (off): in the
 *     one soak run with 20s (at load 15-56) it did not remove the cold start's empty overlays and,
 *     with traffic sent to a restarted service before it was ready, it delayed readiness by about
 *     28 s and competed with live submissions; turn it on where a load balancer waits for
 *     readiness.
 * @param breakerOpenWait How long the store's circuit breaker, once open, answers every call
 *     without the store before it lets {@code breakerProbes} calls try the store (half-open): a
 *     store that is back after a short outage (a restart) is used again this soon. While the probes
 *     keep failing the wait stays this for 10 rounds (a restart of up to about 10 s), then grows by
 *     half each round, up to {@code breakerOpenWaitMax}, so a store that stays down is probed less
 *     and less often; once closed it starts again from this. The breaker's other settings (window,
 *     thresholds) are {@code resilience4j.circuitbreaker.instances.store.*}. Default 1s.
 * @param breakerOpenWaitMax The longest open period of the store's circuit breaker (see {@code
 *     breakerOpenWait}); at least {@code breakerOpenWait}. Default 30s.
 * @param breakerProbes Calls the half-open breaker lets through to the store; all of them must
 *     finish (a failure rate under the breaker's threshold closes it, otherwise it opens again).
 *     Default 3.
 * @param readTimeout Time limit of the store work behind history, recommendation and freeze calls.
 *     Default 5s.
 * @param storeThreads Threads that run store calls; the pool of JDBC connections to tuner-service's
 *     own tables gets as many plus 2 for background work (each thread holds at most one while it
 *     runs a call). Rule of thumb: twice the cores of the service's host (the default fits 2
 *     cores), and no more than the store serves at once (the embedded H2 store serialises the
 *     history tables' calls on one connection per service; ClickHouse: the concurrent queries
 *     granted to the service). A hung store holds at most these. Default 4.
 * @param storeQueue Store calls that may wait for a thread; more are answered with the fallback at
 *     once. Default 64.
 * @param replayCacheRuns Replays of jobs kept for reads (the UI's job page, history and
 *     recommendation views) and for repeated submissions with the same confs, bounded by the runs
 *     they hold together; the least recently read go first. It is also what a submission is
 *     answered from when the store cannot answer in time (the job's kept overlay, marked stale), so
 *     a job not held then fails open with an empty overlay. Size it to the runs of the jobs
 *     submitted between two of their runs (their portraits), within about a fifth of the heap: a
 *     cached run of a two-stage job with 36 confs holds about 9.6 KB (measured with {@code
 *     ReplayCacheMemoryBench}), larger jobs more. 0 turns the cache off. Default 5000 (2,500 jobs
 *     of two runs, about 48 MB: under a fifth of the local stack's 256 MB).
 */
@ConfigurationProperties("sluice.tuner")
@Validated
public record TunerProperties(
    @NotBlank @DefaultValue("jdbc:h2:file:./.sluice/history/sluice-history") String storeUrl,
    @DefaultValue("true") boolean enabled,
    @Min(1) @Max(200) @DefaultValue("20") int portraitSize,
    @Min(1) @Max(10) @DefaultValue("" + PolicyConfig.DEFAULT_MAX_CHANGES)
        int maxChangesPerIteration,
    @DecimalMin(value = "1.0", inclusive = false)
        @DecimalMax("100")
        @DefaultValue("" + PolicyConfig.DEFAULT_MAX_STEP_FACTOR)
        double maxStepFactor,
    @DecimalMin("0")
        @DecimalMax(value = "1", inclusive = false)
        @DefaultValue("" + PolicyConfig.DEFAULT_MIN_IMPROVEMENT)
        double minImprovement,
    @Min(0) @DefaultValue("" + PolicyConfig.DEFAULT_BLOCKED_NOISE_MS) long blockedNoiseMs,
    @Min(0) @DefaultValue("" + PolicyConfig.DEFAULT_WALL_NOISE_MS) long wallNoiseMs,
    @DecimalMin("0") @DecimalMax("1") @DefaultValue("" + PolicyConfig.DEFAULT_WALL_NOISE_BAND)
        double wallNoiseBand,
    @Min(1) @DefaultValue("" + PolicyConfig.DEFAULT_MAX_LAUNCH_FAILURES) int maxLaunchFailures,
    @DecimalMin(value = "0", inclusive = false) @DefaultValue("" + PolicyConfig.DEFAULT_INPUT_DRIFT)
        double inputDriftThreshold,
    @NotNull @DefaultValue("MODERATE") Severity minSeverity,
    @DefaultValue("true") boolean userKeysWin,
    @DefaultValue("true") boolean rediagnose,
    Map<String, String> rules,
    @NotNull @DefaultValue("200ms") Duration submissionTimeout,
    @NotNull @DefaultValue("800ms") Duration submissionQueueWait,
    @NotNull @DefaultValue("30s") Duration breakerWarmUp,
    @NotNull @DefaultValue("0s") Duration submissionWarmUp,
    @NotNull @DurationMin(millis = 1) @DefaultValue("1s") Duration breakerOpenWait,
    @NotNull @DurationMin(millis = 1) @DefaultValue("30s") Duration breakerOpenWaitMax,
    @Min(1) @Max(100) @DefaultValue("3") int breakerProbes,
    @NotNull @DefaultValue("5s") Duration readTimeout,
    @Min(1) @Max(64) @DefaultValue("4") int storeThreads,
    @Min(0) @Max(10_000) @DefaultValue("64") int storeQueue,
    @Min(0) @Max(1_000_000) @DefaultValue("5000") int replayCacheRuns) {

  public TunerProperties {
    if (breakerOpenWait != null
        && breakerOpenWaitMax != null
        && breakerOpenWaitMax.compareTo(breakerOpenWait) < 0) {
      throw new IllegalArgumentException(
          "sluice.tuner.breaker-open-wait-max ("
              + breakerOpenWaitMax
              + ") must be at least sluice.tuner.breaker-open-wait ("
              + breakerOpenWait
              + ")");
    }
    rules =
        rules == null
            ? Map.of()
            : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(rules));
  }

  public PolicyConfig policyConfig() {
    return PolicyConfig.builder()
        .maxChangesPerIteration(maxChangesPerIteration)
        .maxStepFactor(maxStepFactor)
        .minImprovement(minImprovement)
        .blockedNoiseMs(blockedNoiseMs)
        .wallNoiseMs(wallNoiseMs)
        .wallNoiseBand(wallNoiseBand)
        .maxLaunchFailures(maxLaunchFailures)
        .inputDriftThreshold(inputDriftThreshold)
        .minSeverity(minSeverity)
        .userKeysWin(userKeysWin)
        .build();
  }

  /**
   * {@link #rules} as a {@link RuleConfig}; the rule id part is upper-cased (property keys may be
   * lower-cased).
   */
  public RuleConfig ruleConfig() {
    Map<String, String> m = new LinkedHashMap<>();
    rules.forEach(
        (k, v) -> {
          int dot = k.indexOf('.');
          String key =
              dot < 0 ? k : k.substring(0, dot).toUpperCase(Locale.ROOT) + k.substring(dot);
          m.put(RuleConfig.PREFIX + key, v);
        });
    return RuleConfig.of(m);
  }
}
