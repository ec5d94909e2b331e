package io.sluice.ingest.fold;

import io.sluice.contracts.ConfMarkers;
import io.sluice.ingest.parse.SparkEvent;
import io.sluice.ingest.parse.StageInfo;
import io.sluice.model.AppRun;
import io.sluice.model.JobKey;
import io.sluice.model.StageProfile;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Folds the events of one application attempt into an {@link AppRun} with one {@link StageProfile}
 * per stage attempt that ran (see StageProfile for the contract). Events may arrive in log order or
 * replayed; task ends arriving after their stage completed still count. Not thread-safe: one folder
 * per application attempt.
 *
 * <p>Status: RUNNING until ApplicationEnd; then FAILED if Spark recorded a non-zero exit code
 * (Spark 4) or the last job to finish failed, else SUCCEEDED. {@code injected}: for each marker
 * {@code spark.sluice.injected.K}, key K with its value in force (the marker's own value when K
 * itself is absent).
 */
public final class AppFolder {
  public static final String QUEUE_KEY = "spark.yarn.queue";
  public static final String INJECTED_PREFIX = ConfMarkers.INJECTED_PREFIX;

  /** 2: adds the evicted stage attempts (recent keys, count of parts). 1 is still read. */
  private static final int STATE_VERSION = 2;

  /**
   * Keys of evicted stage attempts remembered, so a late task end of one is not taken for a new
   * stage.
   */
  static final int EVICTED_KEYS_KEPT = 4096;

  /** Stages whose partition counts are kept for their children's mapPartitions (the newest ids). */
  static final int STAGE_PARTITIONS_KEPT = 4096;

  private static final byte JOB_NONE = 0;
  private static final byte JOB_SUCCEEDED = 1;
  private static final byte JOB_FAILED = 2;

  private final String cluster;
  private String appId;
  private String fallbackAppId;
  private String attemptId;
  private String appName;
  private String user;
  private String sparkVersion;
  private long startTime;
  private long endTime;
  private boolean ended;
  private Integer exitCode;
  private byte lastJob = JOB_NONE;
  private final TreeMap<String, String> conf = new TreeMap<>();

  /** Partition count of each stage's own RDD: the map outputs of its shuffle. */
  private final TreeMap<Integer, Integer> stagePartitions = new TreeMap<>();

  private final Map<Long, StageAttemptFold> attempts = new HashMap<>();

  /** Stage attempts in {@link #attempts} that Spark reported completed. */
  private int completed;

  /**
   * The most recently evicted stage attempt keys, oldest first (bounded by {@link
   * #EVICTED_KEYS_KEPT}).
   */
  private final LinkedHashSet<Long> evicted = new LinkedHashSet<>();

  private int evictions;
  private long lateTaskEnds;

  public AppFolder(String cluster) {
    this.cluster = cluster == null ? "" : cluster;
  }

  public void accept(SparkEvent e) {
    if (e instanceof SparkEvent.TaskEnd t) {
      taskEnd(t);
    } else if (e instanceof SparkEvent.StageSubmitted s) {
      stage(s.stage());
    } else if (e instanceof SparkEvent.StageCompleted s) {
      stage(s.stage());
    } else if (e instanceof SparkEvent.JobStart j) {
      j.stageInfos().forEach(this::learnPartitions);
    } else if (e instanceof SparkEvent.JobEnd j) {
      lastJob = j.succeeded() ? JOB_SUCCEEDED : JOB_FAILED;
    } else if (e instanceof SparkEvent.EnvironmentUpdate env) {
      conf.putAll(env.sparkProperties());
    } else if (e instanceof SparkEvent.ApplicationStart s) {
      if (appId == null) {
        appId = s.appId();
        attemptId = s.attemptId();
        appName = s.appName();
        user = s.user();
        startTime = s.time();
      }
    } else if (e instanceof SparkEvent.ApplicationEnd end) {
      ended = true;
      endTime = end.time();
      exitCode = end.exitCode();
    } else if (e instanceof SparkEvent.LogStart l && l.sparkVersion() != null) {
      sparkVersion = l.sparkVersion();
    }
  }

  private void taskEnd(SparkEvent.TaskEnd t) {
    if (t.stageId() < 0) {
      return; // reported by the parser as a missing field
    }
    if (evicted.contains(key(t.stageId(), t.stageAttemptId()))) {
      lateTaskEnds++; // its stage attempt was already emitted
      return;
    }
    attempt(t.stageId(), t.stageAttemptId()).add(t);
  }

  private void stage(StageInfo info) {
    if (info.stageId() < 0 || evicted.contains(key(info.stageId(), info.attemptId()))) {
      return;
    }
    learnPartitions(info);
    StageAttemptFold f = attempt(info.stageId(), info.attemptId());
    boolean wasCompleted = f.completionTime > 0;
    f.describe(info);
    if (!wasCompleted && f.completionTime > 0) {
      completed++;
    }
  }

  private void learnPartitions(StageInfo info) {
    if (info.stageId() >= 0 && info.numPartitions() > 0) {
      stagePartitions.putIfAbsent(info.stageId(), info.numPartitions());
      while (stagePartitions.size() > STAGE_PARTITIONS_KEPT) {
        stagePartitions.pollFirstEntry();
      }
    }
  }

  /**
   * Stage attempts held that Spark reported completed (what {@link #evictCompleted} would remove).
   */
  public int completedStageAttempts() {
    return completed;
  }

  /** Stage attempts held (completed or not). */
  public int stageAttempts() {
    return attempts.size();
  }

  /** How many times {@link #evictCompleted} removed stage attempts. */
  public int evictions() {
    return evictions;
  }

  /** Task ends that arrived for a stage attempt after it was evicted (dropped). */
  public long lateTaskEnds() {
    return lateTaskEnds;
  }

  /**
   * Removes every completed stage attempt from this folder and returns the profiles of those that
   * ran, sorted: for applications that run for ever (streaming), whose stages must be emitted
   * before the end and not kept. Later events of an evicted stage attempt are dropped (the newest
   * {@value #EVICTED_KEYS_KEPT} keys are remembered); {@link #profiles()} holds only the stage
   * attempts since.
   */
  public List<StageProfile> evictCompleted() {
    List<StageProfile> out = new ArrayList<>();
    for (StageProfile p : profiles()) {
      StageAttemptFold f = attempts.get(key(p.stageId(), p.stageAttemptId()));
      if (f != null && f.completionTime > 0) {
        out.add(p);
      }
    }
    attempts
        .entrySet()
        .removeIf(
            e -> {
              if (e.getValue().completionTime <= 0) {
                return false;
              }
              evicted.add(e.getKey());
              return true;
            });
    while (evicted.size() > EVICTED_KEYS_KEPT) {
      evicted.remove(evicted.iterator().next());
    }
    completed = 0;
    evictions++;
    return out;
  }

  private StageAttemptFold attempt(int stageId, int attemptId) {
    return attempts.computeIfAbsent(
        key(stageId, attemptId), k -> new StageAttemptFold(stageId, attemptId));
  }

  private static long key(int stageId, int attemptId) {
    return ((long) stageId << 32) | (attemptId & 0xFFFFFFFFL);
  }

  /** Used when the log has no ApplicationStart (e.g. the source's name). */
  public void fallbackAppId(String id) {
    this.fallbackAppId = id;
  }

  public boolean ended() {
    return ended;
  }

  /**
   * The application id from ApplicationStart, else spark.app.id, else the fallback; null if none
   * known.
   */
  public String appId() {
    if (appId != null) {
      return appId;
    }
    String fromConf = conf.get("spark.app.id");
    return fromConf != null ? fromConf : fallbackAppId;
  }

  /** The attempt id, "" when Spark gave none (local and standalone applications). */
  public String appAttemptId() {
    return attemptId == null ? "" : attemptId;
  }

  /** True once any event that identifies or describes the application was folded. */
  public boolean hasEvents() {
    return appId != null || !conf.isEmpty() || !attempts.isEmpty() || sparkVersion != null || ended;
  }

  public String status() {
    if (!ended) {
      return "RUNNING";
    }
    if (exitCode != null && exitCode != 0) {
      return "FAILED";
    }
    return lastJob == JOB_FAILED ? "FAILED" : "SUCCEEDED";
  }

  /** Stage profiles of the attempts that ran, sorted by stage and attempt. */
  public List<StageProfile> profiles() {
    String id = appId();
    List<StageAttemptFold> ran = new ArrayList<>();
    for (StageAttemptFold f : attempts.values()) {
      if (f.ran()) {
        ran.add(f);
      }
    }
    ran.sort(
        Comparator.<StageAttemptFold>comparingInt(f -> f.stageId)
            .thenComparingInt(f -> f.attemptId));
    List<StageProfile> out = new ArrayList<>(ran.size());
    for (StageAttemptFold f : ran) {
      int mapPartitions = 0;
      for (int parent : f.parentIds) {
        mapPartitions += stagePartitions.getOrDefault(parent, 0);
      }
      out.add(f.toProfile(id, mapPartitions));
    }
    return out;
  }

  public AppRun toAppRun(long updatedAt) {
    String queue = conf.get(QUEUE_KEY);
    String jobKey = JobKey.of(conf.get(JobKey.EXPLICIT_KEY), cluster, queue, user, appName);
    return new AppRun(
        cluster,
        appId(),
        appAttemptId(),
        jobKey,
        appName,
        user,
        queue,
        null,
        startTime,
        endTime,
        status(),
        sparkVersion,
        conf,
        injected(),
        profiles(),
        List.of(),
        updatedAt);
  }

  private Map<String, String> injected() {
    Map<String, String> out = new TreeMap<>();
    for (Map.Entry<String, String> e : conf.tailMap(INJECTED_PREFIX, true).entrySet()) {
      if (!e.getKey().startsWith(INJECTED_PREFIX)) {
        break;
      }
      String key = e.getKey().substring(INJECTED_PREFIX.length());
      if (!key.isEmpty()) {
        out.put(key, conf.getOrDefault(key, e.getValue()));
      }
    }
    return out;
  }

  // ---- binary state (for Flink keyed state without Kryo) ----

  public void writeTo(DataOutput out) throws IOException {
    out.writeInt(STATE_VERSION);
    StateIo.writeString(out, cluster);
    StateIo.writeString(out, appId);
    StateIo.writeString(out, fallbackAppId);
    StateIo.writeString(out, attemptId);
    StateIo.writeString(out, appName);
    StateIo.writeString(out, user);
    StateIo.writeString(out, sparkVersion);
    out.writeLong(startTime);
    out.writeLong(endTime);
    out.writeBoolean(ended);
    StateIo.writeNullableInt(out, exitCode);
    out.writeByte(lastJob);
    StateIo.writeMap(out, conf);
    out.writeInt(stagePartitions.size());
    for (Map.Entry<Integer, Integer> e : new TreeMap<>(stagePartitions).entrySet()) {
      out.writeInt(e.getKey());
      out.writeInt(e.getValue());
    }
    List<Long> keys = new ArrayList<>(attempts.keySet());
    keys.sort(null);
    out.writeInt(keys.size());
    for (Long k : keys) {
      attempts.get(k).writeTo(out);
    }
    out.writeInt(evictions);
    out.writeLong(lateTaskEnds);
    out.writeInt(evicted.size());
    for (long k : evicted) {
      out.writeLong(k);
    }
  }

  public static AppFolder readFrom(DataInput in) throws IOException {
    int version = in.readInt();
    if (version != STATE_VERSION && version != 1) {
      throw new IOException(
          "unsupported AppFolder state version "
              + version
              + " (this build reads 1 and "
              + STATE_VERSION
              + ")");
    }
    AppFolder f = new AppFolder(StateIo.readString(in));
    f.appId = StateIo.readString(in);
    f.fallbackAppId = StateIo.readString(in);
    f.attemptId = StateIo.readString(in);
    f.appName = StateIo.readString(in);
    f.user = StateIo.readString(in);
    f.sparkVersion = StateIo.readString(in);
    f.startTime = in.readLong();
    f.endTime = in.readLong();
    f.ended = in.readBoolean();
    f.exitCode = StateIo.readNullableInt(in);
    f.lastJob = in.readByte();
    f.conf.putAll(StateIo.readMap(in));
    int partitions = StateIo.count(in.readInt());
    for (int i = 0; i < partitions; i++) {
      f.stagePartitions.put(in.readInt(), in.readInt());
    }
    int n = StateIo.count(in.readInt());
    for (int i = 0; i < n; i++) {
      StageAttemptFold s = StageAttemptFold.readFrom(in);
      f.attempts.put(key(s.stageId, s.attemptId), s);
      if (s.completionTime > 0) {
        f.completed++;
      }
    }
    if (version >= 2) {
      f.evictions = in.readInt();
      f.lateTaskEnds = in.readLong();
      int kept = StateIo.count(in.readInt());
      for (int i = 0; i < kept; i++) {
        f.evicted.add(in.readLong());
      }
    }
    return f;
  }
}
