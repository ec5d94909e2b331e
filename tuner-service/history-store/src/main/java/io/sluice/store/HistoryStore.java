package io.sluice.store;

import io.sluice.model.AppRun;
import io.sluice.model.StageProfile;
import java.util.List;
import java.util.Optional;

/**
 * Where profiled application runs ({@link AppRun}) are kept. Two implementations behind one
 * contract: the embedded default (H2 in a local file, or an H2 TCP server) and ClickHouse for
 * production. Open one with {@link HistoryStores#open(String)}.
 *
 * <p>Identity: a run is keyed by (cluster, appId, appAttemptId). Of several versions of one run the
 * one with the greatest {@code updatedAt} is the one read back; storing a version whose {@code
 * updatedAt} equals the stored one's replaces it (the same row, no duplicate); an older version
 * than the stored one never wins. Replays are therefore idempotent. Failures surface as {@link
 * HistoryStoreException}.
 */
public interface HistoryStore extends JobIndex, GateEventLog, TuningDecisions, AutoCloseable {

  /**
   * Retention: deletes the runs whose stored version was last updated before {@code before} (epoch
   * ms), with their stages, and re-derives their jobs' summaries (a job left without runs leaves
   * the job list); returns how many runs went. Runs updated since are untouched.
   */
  long pruneRuns(long before);

  /**
   * Stores runs in one batch; idempotent by (cluster, appId, appAttemptId); the greater updatedAt
   * wins.
   */
  void upsert(List<AppRun> runs);

  /** The latest version of one run, or empty when unknown. */
  Optional<AppRun> find(String cluster, String appId, String appAttemptId);

  /**
   * The latest versions of the runs of one recurring job, newest first (by startTime, then appId),
   * at most limit.
   */
  List<AppRun> runsOfJob(String jobKey, int limit);

  /**
   * The version of the runs of one recurring job: changes whenever one of them is stored, replaced
   * by a newer version or removed; {@link RunsVersion#NONE} when it has none. For caches of what is
   * derived from a job's runs.
   */
  RunsVersion runsVersion(String jobKey);

  /**
   * The latest versions of every stored attempt of one application, by attempt id; empty when
   * unknown.
   */
  List<AppRun> attempts(String cluster, String appId);

  /**
   * The latest versions of the newest runs of all jobs (by startTime, then appId), at most limit.
   */
  List<AppRun> recentRuns(int limit);

  /** How many distinct runs are stored. */
  long countRuns();

  /**
   * How many stage-profile rows are visible: one per stage attempt of the latest version of each
   * run.
   */
  long countStages();

  /**
   * Extension: the stage profiles of the latest version of one run as read back from the typed
   * stage table (one column per {@link StageProfile} field), in (stageId, stageAttemptId) order;
   * empty when unknown. The {@code appId} of each profile is the run's.
   */
  List<StageProfile> stagesOf(String cluster, String appId, String appAttemptId);

  /** A short description of the backend and where it is, for logs (never includes credentials). */
  String describe();

  @Override
  void close();
}
