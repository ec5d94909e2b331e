package io.sluice.bench.ui;

import io.sluice.ingest.eventlog.EventLogSource;
import io.sluice.ingest.eventlog.EventLogs;
import io.sluice.ingest.eventlog.ReadReport;
import io.sluice.ingest.fold.EventLogFolding;
import io.sluice.model.AppRun;
import io.sluice.model.StageProfile;
import io.sluice.rules.RuleEngine;
import io.sluice.store.HistoryStore;
import io.sluice.store.HistoryStores;
import java.lang.reflect.RecordComponent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * Fills a history store for the UI benchmark from the real Spark 3.5.7 fixture runs (folded and
 * diagnosed with the built-in rules): {@code jobs} jobs of two runs each (a baseline and a run with
 * a changed shuffle partition count, figures scaled at random), spread over 3 clusters, 20 queues
 * and 50 users, every 97th key holding HTML; and one job, {@link #BIG_JOB}, of {@code bigRuns}
 * runs.
 */
final class UiStoreLoader {
  static final String BIG_JOB = "bench/big-job";
  private static final int BATCH = 500;

  private UiStoreLoader() {}

  /** The fixture runs that fold, diagnosed. */
  static List<AppRun> fixtures(Path root) throws Exception {
    Path dir = root.resolve("deploy/fixtures/eventlogs/spark-3.5.7");
    RuleEngine rules = RuleEngine.loadDefault();
    List<AppRun> out = new ArrayList<>();
    try (Stream<Path> fixtures = Files.list(dir)) {
      for (Path p : fixtures.sorted().toList()) {
        ReadReport report = new ReadReport();
        List<EventLogSource> sources = EventLogs.discover(List.of(p), report);
        if (sources.size() == 1) {
          EventLogFolding.fold(sources.get(0), "bench", report)
              .map(f -> f.toAppRun(1L))
              .filter(r -> !r.stages().isEmpty())
              .ifPresent(r -> out.add(r.withDiagnoses(rules.diagnose(r))));
        }
      }
    }
    if (out.isEmpty()) {
      throw new IllegalStateException("no fixture run folded from " + dir);
    }
    return out;
  }

  /** Fills the store; returns the big job's newest run. */
  static AppRun fill(String url, List<AppRun> fixtures, int jobs, int bigRuns) {
    Random random = new Random(42);
    AppRun newestBig = null;
    try (HistoryStore store = HistoryStores.open(url)) {
      List<AppRun> batch = new ArrayList<>();
      for (int j = 0; j < jobs; j++) {
        AppRun base = fixtures.get(j % fixtures.size());
        String cluster = "cluster-" + (j % 3);
        String queue = "root.q" + (j % 20);
        String user = "user" + (j % 50);
        String key =
            cluster + "/" + queue + "/" + user + "/" + (j % 97 == 0 ? "<b>job</b>-" : "job-") + j;
        long start = 1_790_000_000_000L + j * 60_000L;
        batch.add(variant(base, cluster, queue, user, key, j + "-1", start, Map.of(), 1.0, 1.0));
        batch.add(
            variant(
                base,
                cluster,
                queue,
                user,
                key,
                j + "-2",
                start + 3_600_000L,
                Map.of("spark.sql.shuffle.partitions", String.valueOf(50 + random.nextInt(150))),
                0.5 + random.nextDouble(),
                0.2 + random.nextDouble()));
        if (batch.size() >= BATCH) {
          store.upsert(batch);
          batch.clear();
        }
      }
      AppRun base = fixtures.get(0);
      for (int i = 0; i < bigRuns; i++) {
        Map<String, String> injected =
            i == 0
                ? Map.of()
                : Map.of("spark.sql.shuffle.partitions", String.valueOf(200 - (i % 4) * 40));
        newestBig =
            variant(
                base,
                "cluster-0",
                "root.big",
                "owner",
                BIG_JOB,
                "big-" + i,
                1_790_000_000_000L + i * 3_600_000L,
                injected,
                0.5 + random.nextDouble(),
                random.nextDouble());
        batch.add(newestBig);
      }
      store.upsert(batch);
    }
    return newestBig;
  }

  /**
   * The fixture run re-identified, with {@code injected} in force and its wall time and fetch waits
   * scaled.
   */
  static AppRun variant(
      AppRun base,
      String cluster,
      String queue,
      String user,
      String jobKey,
      String suffix,
      long start,
      Map<String, String> injected,
      double wallFactor,
      double waitFactor) {
    String appId = base.appId() + "-" + suffix;
    Map<String, String> conf = new TreeMap<>(base.conf());
    conf.put("spark.sluice.job.key", jobKey);
    injected.forEach(
        (k, v) -> {
          conf.put(k, v);
          conf.put("spark.sluice.injected." + k, v);
        });
    long end = start + Math.round((base.endTime() - base.startTime()) * wallFactor);
    List<StageProfile> stages = new ArrayList<>();
    for (StageProfile s : base.stages()) {
      stages.add(withAppIdAndWait(s, appId, Math.round(s.shuffleFetchWaitMs() * waitFactor)));
    }
    return new AppRun(
        cluster,
        appId,
        base.appAttemptId(),
        jobKey,
        base.name(),
        user,
        queue,
        base.priority(),
        start,
        end,
        "SUCCEEDED",
        base.sparkVersion(),
        conf,
        injected,
        stages,
        base.diagnoses(),
        end);
  }

  private static StageProfile withAppIdAndWait(StageProfile s, String appId, long waitMs) {
    try {
      RecordComponent[] cs = StageProfile.class.getRecordComponents();
      Object[] values = new Object[cs.length];
      Class<?>[] types = new Class<?>[cs.length];
      for (int i = 0; i < cs.length; i++) {
        types[i] = cs[i].getType();
        String n = cs[i].getName();
        values[i] =
            n.equals("appId")
                ? appId
                : n.equals("shuffleFetchWaitMs") ? waitMs : cs[i].getAccessor().invoke(s);
      }
      return StageProfile.class.getDeclaredConstructor(types).newInstance(values);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(e);
    }
  }
}
