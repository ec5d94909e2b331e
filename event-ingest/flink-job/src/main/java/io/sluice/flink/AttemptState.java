package io.sluice.flink;

import io.sluice.ingest.fold.AppFolder;

/**
 * Keyed state of one application attempt: the folder that accumulates its stage profiles and the
 * bookkeeping around it. Mutable; lives in a {@code MapState<attemptId, AttemptState>} and is
 * serialised with {@link AttemptStateSerializer} (AppFolder's own compact binary form, no Kryo).
 */
public final class AttemptState {
  /**
   * Highest envelope {@code seq} applied; an envelope with seq at or below it is a replay. -1 =
   * none.
   */
  long maxSeq = -1;

  /**
   * Event time the application ended (ApplicationEnd time, else that envelope's emittedAt); 0 while
   * running. The first emitted version of the run carries it as {@code updatedAt}, so replays
   * produce identical rows.
   */
  long endedAt;

  /** Processing time of the last change: drives state retention only, never output. */
  long touchedAt;

  final AppFolder folder;

  AttemptState(AppFolder folder) {
    this.folder = folder;
  }

  AttemptState(long maxSeq, long endedAt, long touchedAt, AppFolder folder) {
    this.maxSeq = maxSeq;
    this.endedAt = endedAt;
    this.touchedAt = touchedAt;
    this.folder = folder;
  }

  boolean ended() {
    return endedAt > 0;
  }

  public AppFolder folder() {
    return folder;
  }

  public long maxSeq() {
    return maxSeq;
  }

  public long endedAt() {
    return endedAt;
  }
}
