package io.sluice.ingest.fold;

import io.sluice.ingest.parse.SparkEvent;
import io.sluice.ingest.parse.StageInfo;
import io.sluice.model.StageProfile;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.List;

/** Running sums of one stage attempt (mutable; owned by {@link AppFolder}). */
final class StageAttemptFold {
  final int stageId;
  final int attemptId;
  String name = "";
  int numTasks;
  int[] parentIds = new int[0];
  long submissionTime;
  long completionTime;
  long successfulTasks;
  long failedTasks;
  long fetchFailedTasks;
  long killedTasks;
  long shuffleWriteBytes;
  long shuffleWriteRecords;
  long shuffleWriteTimeNs;
  long remoteBytesRead;
  long localBytesRead;
  long remoteBlocksFetched;
  long localBlocksFetched;
  long fetchWaitMs;
  long recordsRead;
  long memoryBytesSpilled;
  long diskBytesSpilled;
  long executorRunTimeMs;
  long taskDurationMaxMs;
  long inputBytesRead;
  final LongList taskReadBytes;

  StageAttemptFold(int stageId, int attemptId) {
    this(stageId, attemptId, new LongList());
  }

  private StageAttemptFold(int stageId, int attemptId, LongList taskReadBytes) {
    this.stageId = stageId;
    this.attemptId = attemptId;
    this.taskReadBytes = taskReadBytes;
  }

  void describe(StageInfo info) {
    if (info.name() != null && !info.name().isEmpty()) {
      name = info.name();
    }
    numTasks = info.numTasks();
    parentIds = info.parentIds().stream().mapToInt(Integer::intValue).toArray();
    if (info.submissionTime() > 0) {
      submissionTime = info.submissionTime();
    }
    if (info.completionTime() > 0) {
      completionTime = info.completionTime();
    }
  }

  void add(SparkEvent.TaskEnd t) {
    switch (t.reason()) {
      case SUCCESS -> {}
      case KILLED -> {
        killedTasks++;
        return;
      }
      case FETCH_FAILED -> {
        failedTasks++;
        fetchFailedTasks++;
        return;
      }
      default -> {
        failedTasks++;
        return;
      }
    }
    successfulTasks++;
    shuffleWriteBytes = sat(shuffleWriteBytes, t.shuffleBytesWritten());
    shuffleWriteRecords = sat(shuffleWriteRecords, t.shuffleRecordsWritten());
    shuffleWriteTimeNs = sat(shuffleWriteTimeNs, t.shuffleWriteTimeNs());
    remoteBytesRead = sat(remoteBytesRead, t.remoteBytesRead());
    localBytesRead = sat(localBytesRead, t.localBytesRead());
    remoteBlocksFetched = sat(remoteBlocksFetched, t.remoteBlocksFetched());
    localBlocksFetched = sat(localBlocksFetched, t.localBlocksFetched());
    fetchWaitMs = sat(fetchWaitMs, t.fetchWaitMs());
    recordsRead = sat(recordsRead, t.recordsRead());
    memoryBytesSpilled = sat(memoryBytesSpilled, t.memoryBytesSpilled());
    diskBytesSpilled = sat(diskBytesSpilled, t.diskBytesSpilled());
    executorRunTimeMs = sat(executorRunTimeMs, t.executorRunTimeMs());
    taskDurationMaxMs = Math.max(taskDurationMaxMs, t.durationMs());
    inputBytesRead = sat(inputBytesRead, t.inputBytesRead());
    taskReadBytes.add(sat(t.remoteBytesRead(), t.localBytesRead()));
  }

  boolean ran() {
    return successfulTasks + failedTasks + killedTasks > 0;
  }

  /**
   * @param mapPartitions partitions written by the shuffles this stage reads (from its parents)
   */
  StageProfile toProfile(String appId, int mapPartitions) {
    long readMax = taskReadBytes.max();
    long readMedian = taskReadBytes.median();
    double avgRemoteBlock =
        remoteBlocksFetched > 0 ? (double) remoteBytesRead / remoteBlocksFetched : 0.0;
    double fetchWaitShare =
        executorRunTimeMs > 0 ? Math.min(1.0, (double) fetchWaitMs / executorRunTimeMs) : 0.0;
    double readSkew = readMax > 0 ? (double) readMax / Math.max(1L, readMedian) : 0.0;
    boolean readsShuffle = parentIds.length > 0;
    return new StageProfile(
        appId,
        stageId,
        attemptId,
        name,
        numTasks,
        successfulTasks,
        failedTasks,
        fetchFailedTasks,
        shuffleWriteBytes,
        shuffleWriteRecords,
        remoteBytesRead,
        localBytesRead,
        remoteBlocksFetched,
        localBlocksFetched,
        fetchWaitMs,
        recordsRead,
        memoryBytesSpilled,
        diskBytesSpilled,
        executorRunTimeMs,
        taskDurationMaxMs,
        avgRemoteBlock,
        fetchWaitShare,
        readSkew,
        readsShuffle ? mapPartitions : 0,
        readsShuffle ? numTasks : 0,
        shuffleWriteTimeNs / 1_000_000L,
        submissionTime,
        completionTime,
        readMax,
        readMedian,
        killedTasks,
        inputBytesRead);
  }

  List<Integer> parents() {
    return java.util.Arrays.stream(parentIds).boxed().toList();
  }

  private static long sat(long a, long b) {
    long r = a + b;
    return ((a ^ r) & (b ^ r)) < 0 ? (a < 0 ? Long.MIN_VALUE : Long.MAX_VALUE) : r;
  }

  // ---- binary state ----

  void writeTo(DataOutput out) throws IOException {
    out.writeInt(stageId);
    out.writeInt(attemptId);
    StateIo.writeString(out, name);
    out.writeInt(numTasks);
    StateIo.writeInts(out, parentIds);
    long[] sums = {
      submissionTime,
      completionTime,
      successfulTasks,
      failedTasks,
      fetchFailedTasks,
      shuffleWriteBytes,
      shuffleWriteRecords,
      shuffleWriteTimeNs,
      remoteBytesRead,
      localBytesRead,
      remoteBlocksFetched,
      localBlocksFetched,
      fetchWaitMs,
      recordsRead,
      memoryBytesSpilled,
      diskBytesSpilled,
      executorRunTimeMs,
      taskDurationMaxMs,
      killedTasks,
      inputBytesRead
    };
    out.writeByte(sums.length);
    for (long v : sums) {
      out.writeLong(v);
    }
    out.writeInt(taskReadBytes.size());
    for (int i = 0; i < taskReadBytes.size(); i++) {
      StateIo.writeVarLong(out, taskReadBytes.get(i));
    }
  }

  static StageAttemptFold readFrom(DataInput in) throws IOException {
    int stageId = in.readInt();
    int attemptId = in.readInt();
    String name = StateIo.readString(in);
    int numTasks = in.readInt();
    int[] parents = StateIo.readInts(in);
    int n = in.readUnsignedByte();
    if (n < 18
        || n > 20) { // 18: state written before killedTasks was counted, 19: before inputBytesRead
      throw new IOException("stage state has " + n + " sums, expected 20");
    }
    long[] s = new long[n];
    for (int i = 0; i < n; i++) {
      s[i] = in.readLong();
    }
    int count = in.readInt();
    if (count < 0) {
      throw new IOException("negative task count in stage state");
    }
    LongList reads = new LongList(count);
    for (int i = 0; i < count; i++) {
      reads.add(StateIo.readVarLong(in));
    }
    StageAttemptFold f = new StageAttemptFold(stageId, attemptId, reads);
    f.name = name == null ? "" : name;
    f.numTasks = numTasks;
    f.parentIds = parents;
    f.submissionTime = s[0];
    f.completionTime = s[1];
    f.successfulTasks = s[2];
    // before killedTasks, failedTasks left FetchFailed ends out (and held killed ones, which cannot
    // be told apart)
    f.failedTasks = n > 18 ? s[3] : s[3] + s[4];
    f.fetchFailedTasks = s[4];
    f.shuffleWriteBytes = s[5];
    f.shuffleWriteRecords = s[6];
    f.shuffleWriteTimeNs = s[7];
    f.remoteBytesRead = s[8];
    f.localBytesRead = s[9];
    f.remoteBlocksFetched = s[10];
    f.localBlocksFetched = s[11];
    f.fetchWaitMs = s[12];
    f.recordsRead = s[13];
    f.memoryBytesSpilled = s[14];
    f.diskBytesSpilled = s[15];
    f.executorRunTimeMs = s[16];
    f.taskDurationMaxMs = s[17];
    f.killedTasks = n > 18 ? s[18] : 0;
    f.inputBytesRead = n > 19 ? s[19] : 0;
    return f;
  }
}
