package io.sluice.tuner.tier;

import io.sluice.contracts.Tier;
import java.util.Map;
import java.util.function.Function;

/**
 * Rollout → admission → overlay for one submission, with the lookups passed in (plain Java: the
 * Spring side supplies the rule set, the history read and the metrics sources).
 */
public final class TierDecider {
  /** The job's history as the store gave it, or why it could not. */
  public record History(JobVolume volume, String unavailable) {
    public static History of(JobVolume v) {
      return new History(v, null);
    }

    public static History unavailable(String why) {
      return new History(JobVolume.UNKNOWN, why);
    }
  }

  /** Per-tier configuration the decision needs. */
  public interface Settings {
    AdmissionPolicy admission(Tier tier);

    TierMetricsSource metrics(Tier tier);

    OverlaySettings overlay(String cluster);
  }

  private final Settings settings;

  public TierDecider(Settings settings) {
    this.settings = settings;
  }

  /**
   * @param history called only when the rules grant a push tier
   */
  public TierDecision decide(
      RuleSet rules,
      JobRef job,
      Map<String, String> userConf,
      String submissionId,
      long nowMs,
      Function<String, History> history) {
    RolloutVerdict r = Rollout.decide(rules, job);
    if (!r.tier().isPush()) {
      boolean considered = r.ruleId() != null || r.denyId() != null;
      Map<String, String> confs =
          considered ? Overlays.essMarkers(userConf, r.ruleId(), r.reason()) : Map.of();
      return new TierDecision(
          job.jobKey(),
          submissionId,
          nowMs,
          job.cluster(),
          job.queue(),
          Tier.ESS,
          Tier.ESS,
          TierDecision.Outcome.NOT_ROLLED_OUT,
          r.ruleId(),
          r.denyId(),
          r.reason(),
          -1,
          -1,
          -1,
          "",
          confs);
    }
    Tier tier = r.tier();
    TierCapacity cap = settings.metrics(tier).capacity();
    History h = history.apply(job.jobKey());
    if (h.unavailable() != null) {
      return refused(
          job,
          userConf,
          submissionId,
          nowMs,
          r,
          tier,
          r.reason() + "; job history unavailable (" + h.unavailable() + "): stays on ESS",
          h.volume(),
          -1,
          cap);
    }
    AdmissionVerdict a =
        Admission.decide(tier, job.jobKey(), h.volume(), cap, settings.admission(tier));
    if (!a.admitted()) {
      return refused(
          job,
          userConf,
          submissionId,
          nowMs,
          r,
          tier,
          r.reason() + "; refused: " + a.reason(),
          h.volume(),
          h.volume().runs(),
          cap);
    }
    String reason = r.reason() + "; admitted: " + a.reason();
    Overlay o =
        Overlays.of(
            tier, userConf, job.queue(), settings.overlay(job.cluster()), r.ruleId(), reason);
    if (o.refused()) {
      return refused(
          job,
          userConf,
          submissionId,
          nowMs,
          r,
          tier,
          r.reason() + "; refused: " + o.refusal(),
          h.volume(),
          h.volume().runs(),
          cap);
    }
    return new TierDecision(
        job.jobKey(),
        submissionId,
        nowMs,
        job.cluster(),
        job.queue(),
        tier,
        tier,
        TierDecision.Outcome.ADMITTED,
        r.ruleId(),
        null,
        reason,
        volume(h.volume()),
        h.volume().runs(),
        cap.freeBytes(),
        cap.source(),
        o.confs());
  }

  private static TierDecision refused(
      JobRef job,
      Map<String, String> userConf,
      String submissionId,
      long nowMs,
      RolloutVerdict r,
      Tier tier,
      String reason,
      JobVolume v,
      int runs,
      TierCapacity cap) {
    return new TierDecision(
        job.jobKey(),
        submissionId,
        nowMs,
        job.cluster(),
        job.queue(),
        tier,
        Tier.ESS,
        TierDecision.Outcome.REFUSED,
        r.ruleId(),
        null,
        reason,
        runs < 0 ? -1 : volume(v),
        runs,
        cap.freeBytes(),
        cap.source(),
        Overlays.essMarkers(userConf, r.ruleId(), reason));
  }

  private static long volume(JobVolume v) {
    return v.known() ? v.p90PeakBytes() : -1;
  }
}
