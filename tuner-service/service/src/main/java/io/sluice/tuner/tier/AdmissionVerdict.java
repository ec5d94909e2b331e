package io.sluice.tuner.tier;

/** Whether a push tier takes the job, with the figures used and why. */
public record AdmissionVerdict(
    boolean admitted, JobVolume volume, TierCapacity capacity, String reason) {}
