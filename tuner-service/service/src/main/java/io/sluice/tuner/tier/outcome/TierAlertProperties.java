package io.sluice.tuner.tier.outcome;

import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Every {@code sluice.tier.alerts.*} property (push-tier outcome alerts, docs/push-tier.md). The
 * rules are checked again by {@link AlertRule} (start-up fails naming the value).
 *
 * @param enabled false: outcomes are still counted, but no alert is raised
 * @param window the window the rates are taken over (counts of runs first reported within it)
 * @param fallbackRate a tier and queue's fallback rate (fallbacks / runs routed to the tier) that
 *     raises an alert, (0, 1]
 * @param fallbackMinCount the fewest fallbacks in the window that can raise an alert (a single
 *     unlucky run does not)
 * @param failureRate a tier and queue's failure rate (failed runs / runs routed to it) that raises
 *     an alert, (0, 1]
 * @param failureMinCount the fewest failures in the window that can raise an alert
 * @param cooldown after an alert, no alert of the same kind for the same tier and queue for this
 *     long
 * @param webhookUrl where alerts are POSTed as JSON (TierAlert); empty = no webhook (alerts still
 *     stored and counted)
 * @param webhookTimeout connect + answer time limit of one webhook call
 * @param webhookAttempts calls per alert, the first included (resilience4j Retry; any non-2xx
 *     answer or I/O error retries)
 * @param webhookBackoff wait between webhook attempts
 * @param webhookQueue alerts waiting for the webhook at most; more are dropped and counted
 */
@ConfigurationProperties("sluice.tier.alerts")
@Validated
public record TierAlertProperties(
    @DefaultValue("true") boolean enabled,
    @DefaultValue("1h") @NotNull Duration window,
    @DefaultValue("0.2") @DecimalMin(value = "0", inclusive = false) @DecimalMax("1")
        double fallbackRate,
    @DefaultValue("3") @Min(1) long fallbackMinCount,
    @DefaultValue("0.1") @DecimalMin(value = "0", inclusive = false) @DecimalMax("1")
        double failureRate,
    @DefaultValue("3") @Min(1) long failureMinCount,
    @DefaultValue("30m") @NotNull Duration cooldown,
    @DefaultValue("") String webhookUrl,
    @DefaultValue("2s") @NotNull Duration webhookTimeout,
    @DefaultValue("3") @Min(1) @Max(10) int webhookAttempts,
    @DefaultValue("1s") @NotNull Duration webhookBackoff,
    @DefaultValue("100") @Min(1) @Max(10_000) int webhookQueue) {

  public AlertRule fallbackRule() {
    return new AlertRule(
        TierAlert.Kind.FALLBACK_RATE, fallbackRate, fallbackMinCount, window, cooldown);
  }

  public AlertRule failureRule() {
    return new AlertRule(
        TierAlert.Kind.FAILURE_RATE, failureRate, failureMinCount, window, cooldown);
  }
}
