package io.sluice.tuner.tier;

import io.sluice.contracts.Tier;
import io.sluice.rules.Sizes;

/**
 * History-based admission to a push tier, pure. Checks in order, the first failing one refuses:
 *
 * <ol>
 *   <li>the tier is healthy;
 *   <li>known job (at least one run): its p90 peak stage shuffle write ≤ the per-job cap (when
 *       set), and ≤ {@code maxFreeShare} × the tier's free capacity;
 *   <li>unknown job: {@link AdmissionPolicy.UnknownJobs#REFUSE} refuses; {@code ADMIT_IF_ROOM}
 *       admits when the tier has at least {@code unknownMinFreeBytes} free and the job's bucket
 *       under {@code "unknown-" + tier} is below {@code unknownPercent}.
 * </ol>
 *
 * Every reason names the figures and where the capacity came from.
 */
public final class Admission {
  private Admission() {}

  public static AdmissionVerdict decide(
      Tier tier, String jobKey, JobVolume volume, TierCapacity cap, AdmissionPolicy policy) {
    String capText = "free " + Sizes.human(cap.freeBytes()) + " (" + cap.source() + ")";
    if (!cap.healthy()) {
      return new AdmissionVerdict(
          false, volume, cap, tier + " is unhealthy (" + cap.source() + ")");
    }
    if (volume.known()) {
      String vol =
          "p90 peak stage shuffle write "
              + Sizes.human(volume.p90PeakBytes())
              + " over "
              + volume.runs()
              + " run"
              + (volume.runs() == 1 ? "" : "s");
      if (policy.perJobCapBytes() > 0 && volume.p90PeakBytes() > policy.perJobCapBytes()) {
        return new AdmissionVerdict(
            false,
            volume,
            cap,
            vol
                + " exceeds the per-job cap "
                + Sizes.human(policy.perJobCapBytes())
                + " of "
                + tier);
      }
      long room = (long) Math.floor(cap.freeBytes() * policy.maxFreeShare());
      if (volume.p90PeakBytes() > room) {
        return new AdmissionVerdict(
            false,
            volume,
            cap,
            vol
                + " does not fit "
                + tier
                + ": "
                + capText
                + ", a job may take "
                + Sizes.human(room)
                + " ("
                + share(policy.maxFreeShare())
                + " of it)");
      }
      return new AdmissionVerdict(
          true,
          volume,
          cap,
          vol + " fits " + tier + ": " + capText + ", a job may take " + Sizes.human(room));
    }
    if (policy.unknownJobs() == AdmissionPolicy.UnknownJobs.REFUSE) {
      return new AdmissionVerdict(
          false,
          volume,
          cap,
          "no history for the job: "
              + tier
              + " admits only jobs with runs in the store (unknown-jobs=REFUSE)");
    }
    if (cap.freeBytes() < policy.unknownMinFreeBytes()) {
      return new AdmissionVerdict(
          false,
          volume,
          cap,
          "no history for the job and "
              + tier
              + " has "
              + capText
              + ", below the "
              + Sizes.human(policy.unknownMinFreeBytes())
              + " required for unknown jobs");
    }
    String ruleId = "unknown-" + tier;
    double bucket = Buckets.of(ruleId, jobKey);
    if (!Buckets.in(ruleId, jobKey, policy.unknownPercent())) {
      return new AdmissionVerdict(
          false,
          volume,
          cap,
          "no history for the job; unknown jobs are admitted to "
              + tier
              + " at "
              + Rollout.pct(policy.unknownPercent())
              + " and its bucket "
              + Rollout.pct(bucket)
              + " is outside it");
    }
    return new AdmissionVerdict(
        true,
        volume,
        cap,
        "no history for the job; admitted as one of the "
            + Rollout.pct(policy.unknownPercent())
            + " unknown jobs (bucket "
            + Rollout.pct(bucket)
            + "), "
            + capText);
  }

  private static String share(double s) {
    return Rollout.pct(s * 100);
  }
}
