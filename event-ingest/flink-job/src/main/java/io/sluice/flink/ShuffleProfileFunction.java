package io.sluice.flink;

import io.sluice.ingest.envelope.EnvelopeCodec;
import io.sluice.ingest.fold.AppFolder;
import io.sluice.ingest.fold.YarnJoin;
import io.sluice.ingest.parse.SparkEvent;
import io.sluice.ingest.yarn.YarnAppRecord;
import io.sluice.model.AppRun;
import io.sluice.model.Json;
import io.sluice.model.StageProfile;
import io.sluice.rules.RuleEngine;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeutils.base.LongSerializer;
import org.apache.flink.api.common.typeutils.base.StringSerializer;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.streaming.api.functions.co.KeyedCoProcessFunction;
import org.apache.flink.util.Collector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The heart of the job: keyed by application id, input 1 = records of the events topic (one
 * envelope or a batch of consecutive events of one attempt), input 2 = YARN app records.
 *
 * <p>State per key (application): {@code attempts} maps each application attempt to an {@link
 * AttemptState} (its {@link AppFolder}, the highest seq applied, when it ended); {@code yarn} holds
 * the newest YARN record (as its JSON); {@code yarnTouchedAt}/{@code nextTimer} drive retention.
 *
 * <p>Output: a {@link RunUpdate} when an attempt ends (joined with the YARN record if one arrived
 * before) and again for each ended attempt when a newer YARN record arrives later. Versions are
 * ordered by a deterministic {@code updatedAt}: the end time for the version without YARN data,
 * {@code max(endTime + 1, observedAt)} for a version joined with a YARN record. Both depend only on
 * the inputs, so replaying from a checkpoint, in any interleaving of the two topics, converges on
 * the same stored row.
 */
public class ShuffleProfileFunction
    extends KeyedCoProcessFunction<String, KafkaPayload, KafkaPayload, RunUpdate> {
  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(ShuffleProfileFunction.class);

  /** Log at most this many individual garbage records per subtask; the counter keeps counting. */
  private static final int GARBAGE_LOG_LIMIT = 20;

  private final String defaultCluster;
  private final long endedRetentionMs;
  private final long idleTtlMs;
  private final int maxStagesPerAttempt;

  private transient MapState<String, AttemptState> attempts;
  private transient ValueState<String> yarn;
  private transient ValueState<Long> yarnTouchedAt;
  private transient ValueState<Long> nextTimer;
  private transient RuleEngine rules;

  transient Counter eventsProcessed;
  transient Counter replaysSkipped;
  transient Counter garbage;
  transient Counter runsEmitted;
  transient Counter yarnRecords;
  transient Counter yarnStale;
  transient Counter lateYarnUpdates;
  transient Counter eventsAfterEnd;
  transient Counter appsWithoutStart;
  transient Counter statesExpired;
  transient Counter stringsTruncated;
  transient Counter runPartsEmitted;
  transient Counter stagesEvicted;
  private transient int garbageLogged;

  public ShuffleProfileFunction(String defaultCluster, long endedRetentionMs, long idleTtlMs) {
    this(defaultCluster, endedRetentionMs, idleTtlMs, 0);
  }

  /**
   * @param maxStagesPerAttempt completed stage attempts held per application attempt before a part
   *     is emitted
   */
  public ShuffleProfileFunction(
      String defaultCluster, long endedRetentionMs, long idleTtlMs, int maxStagesPerAttempt) {
    this.defaultCluster =
        defaultCluster == null || defaultCluster.isBlank() ? "default" : defaultCluster;
    this.endedRetentionMs = endedRetentionMs;
    this.idleTtlMs = idleTtlMs;
    this.maxStagesPerAttempt = maxStagesPerAttempt;
  }

  public static ShuffleProfileFunction from(JobConfig config) {
    return new ShuffleProfileFunction(
        config.get(JobConfig.CLUSTER),
        config.getLong(JobConfig.ENDED_RETENTION_MS),
        config.getLong(JobConfig.IDLE_TTL_MS),
        config.getInt(JobConfig.MAX_STAGES_PER_ATTEMPT));
  }

  /** The state descriptor of the per-attempt folders: custom serializer, never Kryo. */
  public static MapStateDescriptor<String, AttemptState> attemptsDescriptor() {
    return new MapStateDescriptor<>(
        "attempts", StringSerializer.INSTANCE, AttemptStateSerializer.INSTANCE);
  }

  @Override
  public void open(OpenContext openContext) throws Exception {
    attempts = getRuntimeContext().getMapState(attemptsDescriptor());
    yarn =
        getRuntimeContext().getState(new ValueStateDescriptor<>("yarn", StringSerializer.INSTANCE));
    yarnTouchedAt =
        getRuntimeContext()
            .getState(new ValueStateDescriptor<>("yarnTouchedAt", LongSerializer.INSTANCE));
    nextTimer =
        getRuntimeContext()
            .getState(new ValueStateDescriptor<>("nextTimer", LongSerializer.INSTANCE));
    rules = RuleEngine.loadDefault();
    MetricGroup m = getRuntimeContext().getMetricGroup().addGroup("sluice");
    eventsProcessed = m.counter("eventsProcessed");
    replaysSkipped = m.counter("replaysSkipped");
    garbage = m.counter("garbageRecords");
    runsEmitted = m.counter("runsEmitted");
    yarnRecords = m.counter("yarnRecords");
    yarnStale = m.counter("yarnStaleRecords");
    lateYarnUpdates = m.counter("lateYarnUpdates");
    eventsAfterEnd = m.counter("eventsAfterEnd");
    appsWithoutStart = m.counter("appsWithoutStart");
    statesExpired = m.counter("statesExpired");
    stringsTruncated = m.counter("stringsTruncated");
    runPartsEmitted = m.counter("runPartsEmitted");
    stagesEvicted = m.counter("stagesEvicted");
    LOG.info(
        "profile operator open: rules {}, ended retention {} ms, idle ttl {} ms",
        rules.ruleIds(),
        endedRetentionMs,
        idleTtlMs);
  }

  // ---------------------------------------------------------------- input 1: event envelopes

  @Override
  public void processElement1(KafkaPayload in, Context ctx, Collector<RunUpdate> out)
      throws Exception {
    EnvelopeCodec.Events d;
    try {
      d = EnvelopeCodec.decodeRecord(in.value);
    } catch (RuntimeException e) {
      garbage(in, "undecodable envelope", e);
      return;
    }
    if (!d.appId().equals(ctx.getCurrentKey())) {
      garbage(in, "envelope of " + d.appId() + " under key " + ctx.getCurrentKey(), null);
      return;
    }
    // One state lookup per record: a batch's events are folded into the same attempt's state.
    String attemptId = d.appAttemptId();
    AttemptState st = attempts.get(attemptId);
    boolean fresh = st == null;
    if (fresh) {
      String cluster = d.cluster().isBlank() ? defaultCluster : d.cluster();
      AppFolder folder = new AppFolder(cluster);
      folder.fallbackAppId(
          d.appId()); // identifies the run even if its ApplicationStart is never seen
      st = new AttemptState(folder);
    }
    long now = ctx.timerService().currentProcessingTime();
    boolean applied = false;
    for (int i = 0; i < d.events().size(); i++) {
      long seq = d.firstSeq() + i;
      if (seq <= st.maxSeq) {
        replaysSkipped.inc();
        continue;
      }
      st.maxSeq = seq;
      applied = true;
      fold(ctx, attemptId, st, d.events().get(i), d.emittedAt(), now, out);
    }
    if (!applied) {
      return;
    }
    st.touchedAt = now;
    attempts.put(attemptId, st);
    if (fresh) {
      schedule(ctx, now + idleTtlMs);
    }
  }

  /**
   * Folds one event into an attempt's state; emits the run when this event ends it, or a part when
   * due.
   */
  private void fold(
      Context ctx,
      String attemptId,
      AttemptState st,
      SparkEvent event,
      long emittedAt,
      long now,
      Collector<RunUpdate> out)
      throws Exception {
    boolean wasEnded = st.ended();
    st.folder.accept(event);
    eventsProcessed.inc();
    if (wasEnded) {
      // Spark writes ApplicationEnd last; anything later is folded but does not re-open the emitted
      // run.
      eventsAfterEnd.inc();
    } else if (st.folder.ended()) {
      long endTime = st.folder.toAppRun(0).endTime();
      st.endedAt = endTime > 0 ? endTime : Math.max(1, emittedAt);
      st.touchedAt = now;
      emit(ctx.getCurrentKey(), attemptId, st, currentYarn(), out);
      schedule(ctx, now + endedRetentionMs);
    } else if (maxStagesPerAttempt > 0
        && st.folder.completedStageAttempts() >= maxStagesPerAttempt) {
      emitPart(ctx.getCurrentKey(), attemptId, st, out);
    }
  }

  /**
   * Emits the completed stage attempts of an attempt that has not ended as a part run and drops
   * them from state, so an application that runs for ever (streaming) holds at most {@code
   * maxStagesPerAttempt} of them. The part's identity ({@code <attempt>~part-<n>}) and version (the
   * latest completion time among its stages) depend only on the input, so a replay writes the same
   * part again.
   */
  private void emitPart(String appId, String attemptId, AttemptState st, Collector<RunUpdate> out) {
    AppRun whole = st.folder.toAppRun(0);
    List<StageProfile> part = st.folder.evictCompleted();
    int n = st.folder.evictions();
    long version =
        Math.max(n, part.stream().mapToLong(StageProfile::completionTime).max().orElse(0));
    AppRun run =
        new AppRun(
            whole.cluster(),
            appId,
            attemptId + "~part-" + n,
            whole.jobKey(),
            whole.name(),
            whole.user(),
            whole.queue(),
            whole.priority(),
            whole.startTime(),
            0,
            "RUNNING",
            whole.sparkVersion(),
            whole.conf(),
            whole.injected(),
            part,
            List.of(),
            version);
    stagesEvicted.inc(part.size());
    runPartsEmitted.inc();
    LOG.info(
        "{} attempt '{}' reached {} completed stage attempts: part {} with {} stages emitted and evicted",
        appId,
        attemptId,
        maxStagesPerAttempt,
        n,
        part.size());
    collectBounded(run.withDiagnoses(rules.diagnose(run)), appId, attemptId, out);
  }

  // ---------------------------------------------------------------- input 2: YARN records

  @Override
  public void processElement2(KafkaPayload in, Context ctx, Collector<RunUpdate> out)
      throws Exception {
    YarnAppRecord record;
    String json;
    try {
      json = new String(in.value, StandardCharsets.UTF_8);
      record = Json.read(json, YarnAppRecord.class);
    } catch (RuntimeException e) {
      garbage(in, "unreadable YARN record", e);
      return;
    }
    if (record == null || (record.appId() != null && !record.appId().equals(ctx.getCurrentKey()))) {
      garbage(in, "YARN record not for key " + ctx.getCurrentKey(), null);
      return;
    }
    yarnRecords.inc();
    YarnAppRecord previous = currentYarn();
    if (previous != null && !newer(record, previous)) {
      yarnStale.inc();
      return;
    }
    yarn.update(json);
    long now = ctx.timerService().currentProcessingTime();
    yarnTouchedAt.update(now);
    for (Map.Entry<String, AttemptState> e : attempts.entries()) {
      AttemptState st = e.getValue();
      if (st.ended()) {
        lateYarnUpdates.inc();
        emit(ctx.getCurrentKey(), e.getKey(), st, record, out);
        st.touchedAt = now;
        attempts.put(e.getKey(), st);
      }
    }
    schedule(ctx, now + endedRetentionMs);
  }

  /**
   * A YARN record supersedes another when it was observed later (ties: the finished one, then the
   * larger state).
   */
  static boolean newer(YarnAppRecord candidate, YarnAppRecord current) {
    if (candidate.observedAt() != current.observedAt()) {
      return candidate.observedAt() > current.observedAt();
    }
    if (candidate.finishedTime() != current.finishedTime()) {
      return candidate.finishedTime() > current.finishedTime();
    }
    return Json.write(candidate).compareTo(Json.write(current)) > 0;
  }

  // ---------------------------------------------------------------- emission

  private void emit(
      String appId,
      String attemptId,
      AttemptState st,
      YarnAppRecord yarnRecord,
      Collector<RunUpdate> out) {
    collectBounded(runOf(appId, attemptId, st, yarnRecord), appId, attemptId, out);
    runsEmitted.inc();
  }

  private void collectBounded(
      AppRun run, String appId, String attemptId, Collector<RunUpdate> out) {
    RunBounds.Bounded bounded = RunBounds.bound(run);
    if (bounded.truncated() > 0) {
      stringsTruncated.inc(bounded.truncated());
      LOG.warn(
          "{} attempt '{}': {} over-long text fields cut to the store's sizes",
          appId,
          attemptId,
          bounded.truncated());
    }
    out.collect(RunUpdate.of(bounded.run()));
  }

  /** The run of an ended attempt, joined with a YARN record when there is one, diagnosed. */
  AppRun runOf(String appId, String attemptId, AttemptState st, YarnAppRecord yarnRecord) {
    AppRun base = st.folder.toAppRun(st.endedAt);
    if (!appId.equals(base.appId()) || !attemptId.equals(base.appAttemptId())) {
      // The start of this attempt was never seen (job started mid-stream, or the topic's retention
      // dropped
      // it): profile what was seen, under the envelope's identity so the run's key stays stable.
      appsWithoutStart.inc();
      base =
          new AppRun(
              base.cluster(),
              appId,
              attemptId,
              base.jobKey(),
              base.name(),
              base.user(),
              base.queue(),
              base.priority(),
              base.startTime(),
              base.endTime(),
              base.status(),
              base.sparkVersion(),
              base.conf(),
              base.injected(),
              base.stages(),
              base.diagnoses(),
              base.updatedAt());
    }
    AppRun run =
        yarnRecord == null
            ? base
            : YarnJoin.join(base, yarnRecord, Math.max(st.endedAt + 1, yarnRecord.observedAt()));
    return run.withDiagnoses(rules.diagnose(run));
  }

  private YarnAppRecord currentYarn() throws Exception {
    String json = yarn.value();
    return json == null ? null : Json.read(json, YarnAppRecord.class);
  }

  private void garbage(KafkaPayload in, String what, Exception e) {
    garbage.inc();
    if (garbageLogged < GARBAGE_LOG_LIMIT) {
      garbageLogged++;
      LOG.warn(
          "skipping garbage record (key {}, {} bytes): {}{}{}",
          in.appId,
          in.value == null ? 0 : in.value.length,
          what,
          e == null ? "" : ": " + e,
          garbageLogged == GARBAGE_LOG_LIMIT ? " (further ones only counted)" : "");
    }
  }

  // ---------------------------------------------------------------- retention

  private void schedule(Context ctx, long at) throws Exception {
    Long next = nextTimer.value();
    if (next == null || at < next) {
      ctx.timerService().registerProcessingTimeTimer(at);
      nextTimer.update(at);
    }
  }

  @Override
  public void onTimer(long timestamp, OnTimerContext ctx, Collector<RunUpdate> out)
      throws Exception {
    Long next = nextTimer.value();
    if (next != null && next > timestamp) {
      return; // an earlier, superseded timer
    }
    nextTimer.clear();
    long now = ctx.timerService().currentProcessingTime();
    long earliest = Long.MAX_VALUE;
    List<String> expired = new ArrayList<>();
    for (Map.Entry<String, AttemptState> e : attempts.entries()) {
      AttemptState st = e.getValue();
      long deadline = st.touchedAt + (st.ended() ? endedRetentionMs : idleTtlMs);
      if (deadline <= now) {
        expired.add(e.getKey());
        if (!st.ended()) {
          LOG.info(
              "dropping state of {} attempt '{}': no end seen and idle for {} ms",
              ctx.getCurrentKey(),
              e.getKey(),
              now - st.touchedAt);
        }
      } else {
        earliest = Math.min(earliest, deadline);
      }
    }
    for (String k : expired) {
      attempts.remove(k);
      statesExpired.inc();
    }
    Long yarnAt = yarnTouchedAt.value();
    if (yarnAt != null && attempts.isEmpty()) {
      // While attempts remain, their own deadlines bring this timer back; the YARN record goes with
      // the last one.
      long deadline = yarnAt + endedRetentionMs;
      if (deadline <= now) {
        yarn.clear();
        yarnTouchedAt.clear();
      } else {
        earliest = Math.min(earliest, deadline);
      }
    }
    if (earliest != Long.MAX_VALUE) {
      schedule(ctx, earliest);
    }
  }
}
