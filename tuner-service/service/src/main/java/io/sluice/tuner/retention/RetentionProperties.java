package io.sluice.tuner.retention;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * How long the history store keeps what grows without bound ({@code sluice.retention.*}), applied by the
 * {@link RetentionPruner} on H2 and ClickHouse alike. Control state is never pruned: freeze
 * flags, the push-tier rules and deny entries, the operator trials. Push-tier outcomes have their own retention,
 * {@code sluice.tier.outcomes.retention} (30 days), pruned by the outcome service.
 */
@ConfigurationProperties("sluice.retention")
public class RetentionProperties {
  /** Runs (with their stages) last updated longer ago than this are deleted; their jobs are re-indexed. Default 180d. */
  private Duration runs = Duration.ofDays(180);

  /**
   * The tuning policy's decisions ({@code tuner_decisions}) and the push-tier decisions ({@code tier_decisions}) taken
   * longer ago than this. A rolled-back change is remembered this long (then it may be tried again). Default 365d.
   */
  private Duration decisions = Duration.ofDays(365);

  /** The ESS gates' events ({@code gate_events}) that happened longer ago than this. Default 30d. */
  private Duration gateEvents = Duration.ofDays(30);

  /** Audit entries ({@code sluice_audit}, {@code tier_audit}) older than this. Default 365d. */
  private Duration audit = Duration.ofDays(365);

  /** How often the pruner runs (first one interval after start-up). Default 1h. */
  private Duration interval = Duration.ofHours(1);

  /** Fails naming the property when a value is not positive. */
  void check() {
    positive("runs", runs);
    positive("decisions", decisions);
    positive("gate-events", gateEvents);
    positive("audit", audit);
    positive("interval", interval);
  }

  private static void positive(String name, Duration d) {
    if (d == null || d.isNegative() || d.isZero()) {
      throw new IllegalArgumentException("sluice.retention." + name + " must be positive, was " + d);
    }
  }

  public Duration getRuns() {
    return runs;
  }

  public void setRuns(Duration runs) {
    this.runs = runs;
  }

  public Duration getDecisions() {
    return decisions;
  }

  public void setDecisions(Duration decisions) {
    this.decisions = decisions;
  }

  public Duration getGateEvents() {
    return gateEvents;
  }

  public void setGateEvents(Duration gateEvents) {
    this.gateEvents = gateEvents;
  }

  public Duration getAudit() {
    return audit;
  }

  public void setAudit(Duration audit) {
    this.audit = audit;
  }

  public Duration getInterval() {
    return interval;
  }

  public void setInterval(Duration interval) {
    this.interval = interval;
  }
}
