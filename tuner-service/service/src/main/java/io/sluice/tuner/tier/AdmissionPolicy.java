package io.sluice.tuner.tier;

/**
 * The admission limits of one push tier (immutable; checked on construction, errors name the
 * field).
 *
 * @param perJobCapBytes a job whose p90 peak stage shuffle write exceeds this is refused (0: no
 *     cap)
 * @param maxFreeShare a job may take at most this share (0..1] of the tier's free capacity
 * @param unknownJobs what a job without history gets
 * @param unknownMinFreeBytes {@link UnknownJobs#ADMIT_IF_ROOM}: the tier needs at least this much
 *     free
 * @param unknownPercent {@link UnknownJobs#ADMIT_IF_ROOM}: only this percent of unknown jobs
 *     (bucket of the job key under {@code "unknown-" + tier}) are admitted, 0..100
 */
public record AdmissionPolicy(
    long perJobCapBytes,
    double maxFreeShare,
    UnknownJobs unknownJobs,
    long unknownMinFreeBytes,
    double unknownPercent) {

  /** How jobs without history are treated. */
  public enum UnknownJobs {
    /** Never admitted: the job runs on the ESS until it has a run in the store (the default). */
    REFUSE,
    /**
     * Admitted when the tier has at least the minimum free and the job is in the unknown-jobs
     * percentage.
     */
    ADMIT_IF_ROOM
  }

  public AdmissionPolicy {
    if (perJobCapBytes < 0) {
      throw new InvalidTierInput(
          "per-job-cap", "per-job-cap must be >= 0 bytes, was " + perJobCapBytes);
    }
    if (!(maxFreeShare > 0 && maxFreeShare <= 1)) {
      throw new InvalidTierInput(
          "max-free-share", "max-free-share must be in (0, 1], was " + maxFreeShare);
    }
    if (unknownJobs == null) {
      throw new InvalidTierInput("unknown-jobs", "unknown-jobs must be REFUSE or ADMIT_IF_ROOM");
    }
    if (unknownMinFreeBytes < 0) {
      throw new InvalidTierInput(
          "unknown-min-free", "unknown-min-free must be >= 0, was " + unknownMinFreeBytes);
    }
    if (!(unknownPercent >= 0 && unknownPercent <= 100)) {
      throw new InvalidTierInput(
          "unknown-percent", "unknown-percent must be in 0..100, was " + unknownPercent);
    }
  }
}
