package io.sluice.tuner.jobs;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.store.RunsVersion;
import io.sluice.tuner.policy.Decision;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Replays kept per job, so that reading an unchanged job again (the UI's job page, the history
 * views) or submitting it again with the same confs costs three small queries instead of parsing
 * its runs and running the rules and the policy over them (and, for a submission, writing what is
 * already written).
 *
 * <p>An entry is keyed by job and run window and answers only while everything its replay was made
 * from is unchanged: the job's stored runs ({@link RunsVersion}), its logged decisions and frozen
 * flag (read again on every call and compared by value) and the pending operator trial ({@link
 * Inputs}). Whatever changes one of them — a run stored by the Flink job in another process, a
 * decision logged by another tuner-service, a freeze, a trial — is seen on the next read, with
 * nothing to notify. The rules and the policy settings are fixed for the life of the service, which
 * is the life of the cache. Entries hold no caller's view (redaction is applied to what they
 * return, per caller).
 *
 * <p>Bounded by the runs the entries hold together ({@code sluice.tuner.replay-cache-runs}); the
 * least recently read entries go first. Meters: {@code sluice.tuner.replay.cache} (counter; result
 * = hit | miss) and {@code sluice.tuner.replay.cache.runs} (gauge: runs held).
 */
final class ReplayCache {
  /**
   * Which replay: a job's newest {@code limit} runs with the confs its submitter set ({@code
   * userConf}, empty for the read-only views).
   */
  record Key(String jobKey, int limit, Map<String, String> userConf) {
    Key {
      userConf = Map.copyOf(userConf);
    }

    /** A read-only view's replay (no user conf). */
    Key(String jobKey, int limit) {
      this(jobKey, limit, Map.of());
    }
  }

  /** What a replay was made from, besides the rules and the policy settings. */
  record Inputs(
      RunsVersion runs, List<Decision> logged, boolean frozen, Map<String, String> operatorTrial) {}

  /**
   * A kept replay; {@code recorded}: its decisions are in the log and the job's state in the job
   * index (a submission made or re-checked it), so a submission answered from it writes nothing.
   */
  private record Entry(Inputs inputs, JobTuning.Replay replay, int weight, boolean recorded) {}

  private final int maxRuns;
  private final LinkedHashMap<Key, Entry> entries = new LinkedHashMap<>(16, 0.75f, true);
  private final Counter hits;
  private final Counter misses;
  private long held;

  /**
   * @param maxRuns the runs all entries may hold together; 0 keeps nothing
   */
  ReplayCache(int maxRuns, MeterRegistry meters) {
    if (maxRuns < 0) {
      throw new IllegalArgumentException("replay cache size " + maxRuns + " runs must be >= 0");
    }
    this.maxRuns = maxRuns;
    this.hits = counter(meters, "hit");
    this.misses = counter(meters, "miss");
    Gauge.builder("sluice.tuner.replay.cache.runs", this, ReplayCache::runsHeld)
        .description("Runs held by the cached read-only replays")
        .register(meters);
  }

  private static Counter counter(MeterRegistry meters, String result) {
    return Counter.builder("sluice.tuner.replay.cache")
        .description("Read-only job replays answered from the cache (hit) or made again (miss)")
        .tag("result", result)
        .register(meters);
  }

  /**
   * The replay kept for the key if it was made from exactly these inputs; counts a hit or a miss.
   */
  synchronized Optional<JobTuning.Replay> get(Key key, Inputs now) {
    return find(key, now, false);
  }

  /**
   * As {@link #get}, but only a replay whose decisions were logged and whose state was recorded
   * ({@link #putRecorded}): what the submission path may answer with and write nothing.
   */
  synchronized Optional<JobTuning.Replay> getRecorded(Key key, Inputs now) {
    return find(key, now, true);
  }

  private Optional<JobTuning.Replay> find(Key key, Inputs now, boolean recordedOnly) {
    Entry e = entries.get(key);
    if (e != null && e.inputs().equals(now) && (e.recorded() || !recordedOnly)) {
      hits.increment();
      return Optional.of(e.replay());
    }
    misses.increment();
    return Optional.empty();
  }

  /**
   * The replay last kept for the key, whatever the job's inputs are now (the store cannot be
   * asked): what the service last knew of the job. Counts neither a hit nor a miss.
   */
  synchronized Optional<JobTuning.Replay> lastKnown(Key key) {
    Entry e = entries.get(key);
    return e == null ? Optional.empty() : Optional.of(e.replay());
  }

  /**
   * Drops every replay of the job (a change made through this service, such as a freeze, that a
   * {@link #lastKnown} answer must not miss while the store is down).
   */
  synchronized void forget(String jobKey) {
    Iterator<Map.Entry<Key, Entry>> it = entries.entrySet().iterator();
    while (it.hasNext()) {
      Map.Entry<Key, Entry> e = it.next();
      if (e.getKey().jobKey().equals(jobKey)) {
        held -= e.getValue().weight();
        it.remove();
      }
    }
  }

  /**
   * Keeps a replay made from these inputs (replacing the key's entry), then drops the least
   * recently read to fit. A replay of no runs (an unknown job: cheap to make again, and any key can
   * be asked for) or of more runs than the whole bound is not kept.
   */
  synchronized void put(Key key, Inputs inputs, JobTuning.Replay replay) {
    keep(key, inputs, replay, false);
  }

  /**
   * Keeps a replay whose decisions are all in the log it was made from and whose state was recorded
   * in the job index.
   */
  synchronized void putRecorded(Key key, Inputs inputs, JobTuning.Replay replay) {
    keep(key, inputs, replay, true);
  }

  private void keep(Key key, Inputs inputs, JobTuning.Replay replay, boolean recorded) {
    int weight = replay.snapshot().runs().size();
    Entry old = entries.remove(key);
    if (old != null) {
      held -= old.weight();
    }
    if (weight == 0 || weight > maxRuns) {
      return;
    }
    entries.put(key, new Entry(inputs, replay, weight, recorded));
    held += weight;
    Iterator<Entry> eldest = entries.values().iterator();
    while (held > maxRuns && eldest.hasNext()) {
      held -= eldest.next().weight();
      eldest.remove();
    }
  }

  /** The runs the entries hold together. */
  synchronized long runsHeld() {
    return held;
  }

  /** How many replays are kept. */
  synchronized int size() {
    return entries.size();
  }
}
