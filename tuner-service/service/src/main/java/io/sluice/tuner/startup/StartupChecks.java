package io.sluice.tuner.startup;

import io.sluice.tuner.TunerProperties;
import io.sluice.tuner.jobs.JobTuning;
import io.sluice.tuner.store.StoreGateway;
import io.sluice.tuner.tier.RuleBook;
import io.sluice.tuner.tier.TierProperties;
import io.sluice.tuner.tier.outcome.OutcomeService;
import java.util.Optional;
import java.util.function.Supplier;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * What tuner-service loads in the background before it is ready, in the order it loads: the history
 * store opened, migrated and answering (with the decision log's tables), the push-tier rollout
 * rules (when the tier routing is on), the outcome totals restored into the counters, and the
 * submission path warmed up ({@link SubmissionWarmUp}).
 */
@Configuration(proxyBeanMethods = false)
class StartupChecks {

  @Bean
  StartupCheck storeCheck(StoreGateway gateway) {
    return check(
        "store",
        () ->
            gateway.answered()
                ? null
                : "the history store has not answered: " + gateway.warmUpError());
  }

  @Bean
  StartupCheck rulesCheck(RuleBook rules, TierProperties tier) {
    return check(
        "rollout rules",
        () ->
            !tier.enabled() || rules.current() != null
                ? null
                : "the rollout rules are not loaded: " + rules.loadError());
  }

  @Bean
  StartupCheck outcomesCheck(OutcomeService outcomes) {
    return check(
        "outcome totals",
        () -> outcomes.restored() ? null : "the outcome totals are not restored yet");
  }

  /** Declared last: it starts once the store answers and ends readiness's wait. */
  @Bean
  SubmissionWarmUp submissionWarmUp(JobTuning tuning, StoreGateway gateway, TunerProperties props) {
    return new SubmissionWarmUp(tuning, gateway, props);
  }

  /**
   * A check named {@code name} that waits for as long as {@code waitingFor} gives a reason (null:
   * done).
   */
  static StartupCheck check(String name, Supplier<String> waitingFor) {
    return new StartupCheck() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public Optional<String> waitingFor() {
        return Optional.ofNullable(waitingFor.get());
      }
    };
  }
}
