package io.sluice.tuner.retention;

import java.time.Duration;
import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How long the history store keeps what grows without bound ({@code sluice.retention.*}), applied
 * by the {@link RetentionPruner} on H2 and ClickHouse alike. Control state is never pruned: freeze
 * flags, the push-tier rules and deny entries, the operator trials. Push-tier outcomes have their
 * own retention, {@code sluice.tier.outcomes.retention} (30 days), pruned by the outcome service.
 * Every duration must be positive; binding fails naming the property otherwise.
 *
 * @param runs runs (with their stages) last updated longer ago than this are deleted; their jobs
 *     are re-indexed
 * @param decisions the tuning policy's decisions (tuner_decisions) and the push-tier decisions
 *     (tier_decisions) taken longer ago than this; a rolled-back change is remembered this long
 *     (then it may be tried again)
 * @param gateEvents the ESS gates' events (gate_events) that happened longer ago than this
 * @param audit audit entries (sluice_audit, tier_audit) older than this
 * @param interval how often the pruner runs (first one interval after start-up)
 */
@ConfigurationProperties("sluice.retention")
public record RetentionProperties(
    @DefaultValue("180d") @DurationMin(nanos = 0, inclusive = false) Duration runs,
    @DefaultValue("365d") @DurationMin(nanos = 0, inclusive = false) Duration decisions,
    @DefaultValue("30d") @DurationMin(nanos = 0, inclusive = false) Duration gateEvents,
    @DefaultValue("365d") @DurationMin(nanos = 0, inclusive = false) Duration audit,
    @DefaultValue("1h") @DurationMin(nanos = 0, inclusive = false) Duration interval) {

  public RetentionProperties {
    positive("runs", runs);
    positive("decisions", decisions);
    positive("gate-events", gateEvents);
    positive("audit", audit);
    positive("interval", interval);
  }

  private static void positive(String name, Duration d) {
    if (d == null || d.isNegative() || d.isZero()) {
      throw new IllegalArgumentException(
          "sluice.retention." + name + " must be positive, was " + d);
    }
  }
}
