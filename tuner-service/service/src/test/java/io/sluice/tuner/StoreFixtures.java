package io.sluice.tuner;

import io.sluice.ingest.eventlog.EventLogSource;
import io.sluice.ingest.eventlog.EventLogs;
import io.sluice.ingest.eventlog.ReadReport;
import io.sluice.ingest.fold.EventLogFolding;
import io.sluice.model.AppRun;
import io.sluice.model.StageProfile;
import java.lang.reflect.RecordComponent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Real runs folded from the Spark 3.5.7 fixtures of deploy/fixtures, and variations of them for
 * histories.
 */
public final class StoreFixtures {
  private StoreFixtures() {}

  static Path fixtures() {
    String root = System.getProperty("sluice.root");
    Path p = root == null ? Path.of("../..") : Path.of(root);
    Path dir = p.resolve("deploy/fixtures/eventlogs/spark-3.5.7");
    if (!Files.isDirectory(dir)) {
      dir = Path.of("../../deploy/fixtures/eventlogs/spark-3.5.7");
    }
    return dir;
  }

  /** The fixture's run, as the folder produces it (no diagnoses: the service re-diagnoses). */
  public static AppRun fold(String fixture) {
    ReadReport report = new ReadReport();
    List<EventLogSource> sources = EventLogs.discover(List.of(fixtures().resolve(fixture)), report);
    if (sources.size() != 1) {
      throw new IllegalStateException(
          "expected one event log in " + fixture + ", found " + sources.size());
    }
    return EventLogFolding.fold(sources.get(0), "test", report).orElseThrow().toAppRun(1L);
  }

  /**
   * The run re-identified as run {@code index} of {@code jobKey}, started {@code index} hours after
   * the original, with {@code injected} in force (conf and markers as the client writes them), wall
   * time scaled by {@code wallFactor} and every stage's fetch wait scaled by {@code waitFactor}.
   */
  public static AppRun variant(
      AppRun base,
      String jobKey,
      int index,
      Map<String, String> injected,
      double wallFactor,
      double waitFactor) {
    Map<String, String> conf = new TreeMap<>(base.conf());
    conf.put("spark.sluice.job.key", jobKey);
    injected.forEach(
        (k, v) -> {
          conf.put(k, v);
          conf.put("spark.sluice.injected." + k, v);
        });
    String appId = base.appId() + "-" + jobKey + "-" + index;
    long start = base.startTime() + index * 3_600_000L;
    long wall = Math.round((base.endTime() - base.startTime()) * wallFactor);
    List<StageProfile> stages =
        base.stages().stream()
            .map(
                s ->
                    with(
                        s,
                        c ->
                            switch (c) {
                              case "appId" -> appId;
                              case "shuffleFetchWaitMs" ->
                                  Math.round(s.shuffleFetchWaitMs() * waitFactor);
                              default -> null;
                            }))
            .toList();
    return new AppRun(
        base.cluster(),
        appId,
        base.appAttemptId(),
        jobKey,
        base.name(),
        base.user(),
        base.queue(),
        base.priority(),
        start,
        start + wall,
        base.status(),
        base.sparkVersion(),
        conf,
        injected,
        stages,
        List.of(),
        start + wall);
  }

  /**
   * A copy of a stage with the named components replaced (the function returns null to keep a
   * component).
   */
  private static StageProfile with(
      StageProfile s, java.util.function.Function<String, Object> replace) {
    try {
      RecordComponent[] comps = StageProfile.class.getRecordComponents();
      Object[] args = new Object[comps.length];
      Class<?>[] types = new Class<?>[comps.length];
      for (int i = 0; i < comps.length; i++) {
        Object r = replace.apply(comps[i].getName());
        args[i] = r != null ? r : comps[i].getAccessor().invoke(s);
        types[i] = comps[i].getType();
      }
      return StageProfile.class.getDeclaredConstructor(types).newInstance(args);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * Three runs of {@code jobKey} from the tiny_blocks fixture, oldest first: a baseline with no
   * overlay, a change to 50 shuffle partitions (wall x0.6, fetch wait x0.2: kept) and a change to
   * 13 (wall x1.5: rolled back).
   */
  static List<AppRun> tunedHistory(String jobKey) {
    AppRun tiny = fold("tiny_blocks-lz4");
    String partitions = "spark.sql.shuffle.partitions";
    return List.of(
        variant(tiny, jobKey, 1, Map.of(), 1, 1),
        variant(tiny, jobKey, 2, Map.of(partitions, "50"), 0.6, 0.2),
        variant(tiny, jobKey, 3, Map.of(partitions, "13"), 1.5, 0.2));
  }
}
