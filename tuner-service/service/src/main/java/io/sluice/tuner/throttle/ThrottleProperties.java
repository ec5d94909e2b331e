package io.sluice.tuner.throttle;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Every {@code sluice.throttle.*} property of tuner-service (the ESS throttle's priority map,
 * docs/throttle.md). Priorities are whole numbers in {@value #MIN_PRIORITY}..{@value
 * #MAX_PRIORITY}; higher gets more of an abnormal ESS node (the gate's {@code
 * sluice.throttle.priority.weights} map them to weights). Job keys contain {@code /}, so they are
 * written in brackets: {@code sluice.throttle.jobs.[prod/etl/alice/nightly]=4}. A priority outside
 * the bounds or a time-to-live that is not positive fails binding, naming the property.
 *
 * @param enabled false: no app reporter or shim is added to submissions and the priority map stays
 *     empty
 * @param defaultPriority priority of submissions whose queue and job are not listed, also sent to
 *     the gates as defaultPriority (keep it equal to the gates' sluice.throttle.priority.default)
 * @param queues queue to priority (sluice.throttle.queues.etl=1); a job override wins
 * @param jobs job key to priority, overriding its queue's (sluice.throttle.jobs.[job key]=4)
 * @param shimQueues queues whose submissions get the client shim
 *     (io.sluice.throttle.shim.SluiceShimPlugin, which honours the gate's SLEEP directives), only
 *     when shim-jar is set
 * @param shimJar path or URL of the shim jar (sluice-throttle-shim) added to shim queues'
 *     spark.jars; empty: none
 * @param reporterJar path or URL of the tuner client jar (sluice-tuner-client-*-all.jar) that
 *     carries the app reporter, the driver plugin that tells this service which application a
 *     submission became; without it no app is ever registered and the priority map stays empty. The
 *     push tier uses the same plugin to report which tier a run really used (added to every job
 *     admitted to a push tier, also with sluice.throttle.enabled=false); empty: none
 * @param reportUrl the base URL drivers use to reach this service, added as spark.sluice.tuner.url
 *     (without it the reporter uses the driver's own spark.sluice.tuner.url / SLUICE_TUNER_URL);
 *     empty: none
 * @param appTtl a registered application leaves the priority map this long after it was reported
 * @param submissionTtl a submission whose application was not reported within this time is
 *     forgotten
 * @param maxApps at most this many live applications and as many pending submissions are kept
 *     (oldest go first)
 */
@ConfigurationProperties("sluice.throttle")
@Validated
public record ThrottleProperties(
    @DefaultValue("true") boolean enabled,
    @DefaultValue("2") @Min(MIN_PRIORITY) @Max(MAX_PRIORITY) int defaultPriority,
    @DefaultValue Map<String, Integer> queues,
    @DefaultValue Map<String, Integer> jobs,
    @DefaultValue List<String> shimQueues,
    @DefaultValue("") String shimJar,
    @DefaultValue("") String reporterJar,
    @DefaultValue("") String reportUrl,
    @DefaultValue("24h") @NotNull @DurationMin(nanos = 0, inclusive = false) Duration appTtl,
    @DefaultValue("1h") @NotNull @DurationMin(nanos = 0, inclusive = false) Duration submissionTtl,
    @DefaultValue("10000") @Min(1) @Max(1_000_000) int maxApps) {
  public static final int MIN_PRIORITY = -1000;
  public static final int MAX_PRIORITY = 1000;

  public ThrottleProperties {
    queues = Map.copyOf(queues);
    jobs = Map.copyOf(jobs);
    shimQueues = List.copyOf(shimQueues);
    checkMap("sluice.throttle.queues.", queues);
    checkMap("sluice.throttle.jobs.", jobs);
    positive("app-ttl", appTtl);
    positive("submission-ttl", submissionTtl);
  }

  private static void positive(String name, Duration d) {
    if (d != null && (d.isNegative() || d.isZero())) {
      throw new IllegalArgumentException("sluice.throttle." + name + " must be positive, was " + d);
    }
  }

  private static void checkMap(String prefix, Map<String, Integer> m) {
    m.forEach(
        (k, v) -> {
          if (v == null || v < MIN_PRIORITY || v > MAX_PRIORITY) {
            throw new IllegalArgumentException(
                prefix
                    + "["
                    + k
                    + "] must be in "
                    + MIN_PRIORITY
                    + ".."
                    + MAX_PRIORITY
                    + ", was "
                    + v);
          }
        });
  }
}
