package io.sluice.tuner;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.sluice.contracts.api.Change;
import io.sluice.tuner.policy.Decision;
import io.sluice.tuner.policy.Evaluation;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.springframework.stereotype.Component;

/**
 * The service's own meters (besides Spring's {@code http.server.requests} and resilience4j's):
 * {@code sluice.tuner.submissions} (timer; outcome = tuned | empty | stale | fallback), {@code
 * sluice.tuner.recommendations} (changes handed out; rule, key), {@code sluice.tuner.rollbacks}
 * (trials rolled back, counted once per run and key when first logged), {@code
 * sluice.tuner.decisions} (logged decisions; kind) and {@code sluice.tuner.store.fallbacks}
 * (submissions answered with an empty overlay without the store; reason), {@code
 * sluice.tuner.store.stale} (submissions answered from the job's last known state; reason) and
 * {@code sluice.tuner.platform.failures} (platform contributors that threw and were skipped;
 * contributor).
 */
@Component
public class TunerMetrics {
  static final List<String> FALLBACK_REASONS = List.of("timeout", "circuit_open", "busy", "error");

  private final MeterRegistry registry;
  private final Counter rollbacks;

  public TunerMetrics(MeterRegistry registry) {
    this.registry = registry;
    this.rollbacks =
        Counter.builder("sluice.tuner.rollbacks")
            .description(
                "Trial overlays rolled back because the run's figures did not improve (per run and key)")
            .register(registry);
    for (String reason : FALLBACK_REASONS) {
      fallbackCounter(reason);
    }
    for (String reason : FALLBACK_REASONS) {
      staleCounter(reason);
    }
    for (String outcome : List.of("tuned", "empty", "stale", "fallback")) {
      submissionTimer(outcome);
    }
  }

  public void submission(String outcome, long nanos) {
    submissionTimer(outcome).record(nanos, TimeUnit.NANOSECONDS);
  }

  public void recommended(List<Change> changes) {
    for (Change c : changes) {
      Counter.builder("sluice.tuner.recommendations")
          .description("Configuration changes handed out, by rule")
          .tag("rule", c.ruleId())
          .tag("key", c.key())
          .register(registry)
          .increment();
    }
  }

  public void logged(List<Decision> added) {
    for (Decision d : added) {
      Counter.builder("sluice.tuner.decisions")
          .description("Policy decisions logged, by kind")
          .tag("kind", d.kind().name())
          .register(registry)
          .increment();
      if (d.kind() == Evaluation.ROLLED_BACK) {
        rollbacks.increment();
      }
    }
  }

  public void platformFailure(String contributor) {
    Counter.builder("sluice.tuner.platform.failures")
        .description("Platform contributors that failed for a submission and were skipped")
        .tag("contributor", contributor)
        .register(registry)
        .increment();
  }

  public void fallback(String reason) {
    fallbackCounter(reason).increment();
  }

  public void stale(String reason) {
    staleCounter(reason).increment();
  }

  private Counter staleCounter(String reason) {
    return Counter.builder("sluice.tuner.store.stale")
        .description(
            "Submissions answered from the job's last known state (kept overlay) because the store was unavailable")
        .tag("reason", reason)
        .register(registry);
  }

  private Counter fallbackCounter(String reason) {
    return Counter.builder("sluice.tuner.store.fallbacks")
        .description("Submissions answered with an empty overlay because the store was unavailable")
        .tag("reason", reason)
        .register(registry);
  }

  private Timer submissionTimer(String outcome) {
    return Timer.builder("sluice.tuner.submissions")
        .description("Submission requests and their latency")
        .tag("outcome", outcome)
        .publishPercentiles(0.5, 0.99)
        .register(registry);
  }
}
