package io.sluice.tuner.policy;

/** Where a job stands (REST contract). */
public enum JobState {
  /** no completed run known yet: empty overlay */
  NEW,
  /** a change is being tried, or a re-measurement after a re-open is due */
  TUNING,
  /** nothing fires above LOW, or nothing is left to try: the kept overlay is repeated */
  STABLE,
  /** an operator froze the job: the last kept overlay is repeated, no new change is tried */
  FROZEN,
  /** tuning is switched off: empty overlay */
  DISABLED
}
