package io.sluice.store;

import java.util.List;

/**
 * Reads the tuning decisions tuner-service logged in the same store, for tools that show a job's
 * runs.
 */
public interface TuningDecisions {
  /**
   * The decisions about a job's runs, oldest run first; empty when the job has none or when no
   * tuner-service ever wrote a decision log into this store.
   */
  List<TuningDecision> tuningDecisions(String jobKey);
}
