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
 * Read-only replays kept per job, so that reading an unchanged job again (the UI's job page, the
 * history views) costs two small queries instead of parsing its runs and running the rules and the
 * policy over them.
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
  /** Which replay: a job's newest {@code limit} runs. */
  record Key(String jobKey, int limit) {}

  /** What a replay was made from, besides the rules and the policy settings. */
  record Inputs(
      RunsVersion runs, List<Decision> logged, boolean frozen, Map<String, String> operatorTrial) {}

  private record Entry(Inputs inputs, JobTuning.Replay replay, int weight) {}

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
    Entry e = entries.get(key);
    if (e != null && e.inputs().equals(now)) {
      hits.increment();
      return Optional.of(e.replay());
    }
    misses.increment();
    return Optional.empty();
  }

  /**
   * Keeps a replay made from these inputs (replacing the key's entry), then drops the least
   * recently read to fit. A replay of no runs (an unknown job: cheap to make again, and any key can
   * be asked for) or of more runs than the whole bound is not kept.
   */
  synchronized void put(Key key, Inputs inputs, JobTuning.Replay replay) {
    int weight = replay.snapshot().runs().size();
    Entry old = entries.remove(key);
    if (old != null) {
      held -= old.weight();
    }
    if (weight == 0 || weight > maxRuns) {
      return;
    }
    entries.put(key, new Entry(inputs, replay, weight));
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
