package io.sluice.tuner.tier.outcome;

import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * Every {@code sluice.tier.alerts.*} property (push-tier outcome alerts, docs/push-tier.md) with its default. The rules are
 * checked again by {@link AlertRule} (start-up fails naming the value).
 */
@ConfigurationProperties("sluice.tier.alerts")
@Validated
public class TierAlertProperties {
  /** False: outcomes are still counted, but no alert is raised. Default true. */
  private boolean enabled = true;

  /** The window the rates are taken over (counts of runs first reported within it). Default 1h. */
  @NotNull
  private Duration window = Duration.ofHours(1);

  /** A tier and queue's fallback rate (fallbacks / runs routed to the tier) that raises an alert, (0, 1]. Default 0.2. */
  @DecimalMin(value = "0", inclusive = false)
  @DecimalMax("1")
  private double fallbackRate = 0.2;

  /** The fewest fallbacks in the window that can raise an alert (a single unlucky run does not). Default 3. */
  @Min(1)
  private long fallbackMinCount = 3;

  /** A tier and queue's failure rate (failed runs / runs routed to it) that raises an alert, (0, 1]. Default 0.1. */
  @DecimalMin(value = "0", inclusive = false)
  @DecimalMax("1")
  private double failureRate = 0.1;

  /** The fewest failures in the window that can raise an alert. Default 3. */
  @Min(1)
  private long failureMinCount = 3;

  /** After an alert, no alert of the same kind for the same tier and queue for this long. Default 30m. */
  @NotNull
  private Duration cooldown = Duration.ofMinutes(30);

  /** Where alerts are POSTed as JSON ({@code TierAlert}); empty = no webhook (alerts still stored and counted). */
  private String webhookUrl = "";

  /** Connect + answer time limit of one webhook call. Default 2s. */
  @NotNull
  private Duration webhookTimeout = Duration.ofSeconds(2);

  /** Calls per alert, the first included (resilience4j Retry; any non-2xx answer or I/O error retries). Default 3. */
  @Min(1)
  @Max(10)
  private int webhookAttempts = 3;

  /** Wait between webhook attempts. Default 1s. */
  @NotNull
  private Duration webhookBackoff = Duration.ofSeconds(1);

  /** Alerts waiting for the webhook at most; more are dropped and counted. Default 100. */
  @Min(1)
  @Max(10_000)
  private int webhookQueue = 100;

  public AlertRule fallbackRule() {
    return new AlertRule(TierAlert.Kind.FALLBACK_RATE, fallbackRate, fallbackMinCount, window, cooldown);
  }

  public AlertRule failureRule() {
    return new AlertRule(TierAlert.Kind.FAILURE_RATE, failureRate, failureMinCount, window, cooldown);
  }

  public boolean isEnabled() {
    return enabled;
  }

  public void setEnabled(boolean enabled) {
    this.enabled = enabled;
  }

  public Duration getWindow() {
    return window;
  }

  public void setWindow(Duration window) {
    this.window = window;
  }

  public double getFallbackRate() {
    return fallbackRate;
  }

  public void setFallbackRate(double fallbackRate) {
    this.fallbackRate = fallbackRate;
  }

  public long getFallbackMinCount() {
    return fallbackMinCount;
  }

  public void setFallbackMinCount(long fallbackMinCount) {
    this.fallbackMinCount = fallbackMinCount;
  }

  public double getFailureRate() {
    return failureRate;
  }

  public void setFailureRate(double failureRate) {
    this.failureRate = failureRate;
  }

  public long getFailureMinCount() {
    return failureMinCount;
  }

  public void setFailureMinCount(long failureMinCount) {
    this.failureMinCount = failureMinCount;
  }

  public Duration getCooldown() {
    return cooldown;
  }

  public void setCooldown(Duration cooldown) {
    this.cooldown = cooldown;
  }

  public String getWebhookUrl() {
    return webhookUrl;
  }

  public void setWebhookUrl(String webhookUrl) {
    this.webhookUrl = webhookUrl;
  }

  public Duration getWebhookTimeout() {
    return webhookTimeout;
  }

  public void setWebhookTimeout(Duration webhookTimeout) {
    this.webhookTimeout = webhookTimeout;
  }

  public int getWebhookAttempts() {
    return webhookAttempts;
  }

  public void setWebhookAttempts(int webhookAttempts) {
    this.webhookAttempts = webhookAttempts;
  }

  public Duration getWebhookBackoff() {
    return webhookBackoff;
  }

  public void setWebhookBackoff(Duration webhookBackoff) {
    this.webhookBackoff = webhookBackoff;
  }

  public int getWebhookQueue() {
    return webhookQueue;
  }

  public void setWebhookQueue(int webhookQueue) {
    this.webhookQueue = webhookQueue;
  }
}
