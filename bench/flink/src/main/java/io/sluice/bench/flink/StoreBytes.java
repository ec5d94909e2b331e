package io.sluice.bench.flink;

import io.sluice.ingest.eventlog.EventLogSource;
import io.sluice.ingest.eventlog.EventLogs;
import io.sluice.ingest.eventlog.ReadReport;
import io.sluice.ingest.fold.AppFolder;
import io.sluice.ingest.fold.EventLogFolding;
import io.sluice.model.AppRun;
import io.sluice.model.Json;
import io.sluice.rules.RuleEngine;
import io.sluice.store.HistoryStore;
import io.sluice.store.HistoryStores;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Bytes a stored run takes in the history store, for the sizing model: the 13 finished fixture logs
 * folded and diagnosed as the Flink job does, each run stored {@code copies} times under synthetic
 * application ids, into an embedded H2 file store and into ClickHouse's engine (chdb behind
 * deploy/clickhouse/chdb_http_front.py).
 *
 * <pre>
 * StoreBytes --root REPO --work DIR --python VENV_PYTHON [--copies 300]
 * </pre>
 *
 * Prints {@code STORE_BYTES store=h2 ...} (the database file after closing) and one {@code
 * STORE_BYTES store=clickhouse table=...} line per table (active parts after OPTIMIZE FINAL: bytes
 * on disk, uncompressed).
 */
@Command(
    name = "store-bytes",
    mixinStandardHelpOptions = true,
    description = "Bytes per stored run in H2 and ClickHouse.")
public final class StoreBytes implements Callable<Integer> {
  @Option(
      names = "--root",
      defaultValue = ".",
      description = "The repository (for the fixture logs).")
  Path rootArg;

  @Option(names = "--work", required = true, description = "Directory for the stores.")
  Path workArg;

  @Option(names = "--python", required = true, description = "The chdb virtualenv's python.")
  Path python;

  @Option(names = "--copies", defaultValue = "300", description = "Copies of the fixture runs.")
  int copies;

  private StoreBytes() {}

  public static void main(String[] args) {
    System.exit(new CommandLine(new StoreBytes()).execute(args));
  }

  @Override
  public Integer call() throws Exception {
    Path root = rootArg.toAbsolutePath();
    Path work = workArg.toAbsolutePath();
    List<AppRun> runs = runs(root, copies);
    long stages = runs.stream().mapToLong(r -> r.stages().size()).sum();
    long json =
        runs.stream().mapToLong(r -> Json.write(r).getBytes(StandardCharsets.UTF_8).length).sum();
    FlinkBench.log(
        "%d runs, %d stage profiles, %.1f MB of AppRun JSON", runs.size(), stages, json / 1e6);

    Path h2 = work.resolve("h2");
    FlinkBench.deleteTree(h2);
    try (HistoryStore store = HistoryStores.open("jdbc:h2:file:" + h2.resolve("history"))) {
      store.upsert(runs.subList(0, 1)); // schema created, then measured from an almost empty file
    }
    long h2Empty = treeBytes(h2);
    try (HistoryStore store = HistoryStores.open("jdbc:h2:file:" + h2.resolve("history"))) {
      for (int i = 0; i < runs.size(); i += 100) {
        store.upsert(runs.subList(i, Math.min(runs.size(), i + 100)));
      }
    }
    long h2Bytes = treeBytes(h2) - h2Empty;
    System.out.printf(
        Locale.ROOT,
        "STORE_BYTES store=h2 runs=%d stages=%d bytes=%d bytesPerRun=%.0f "
            + "bytesPerStage=%.0f jsonBytesPerRun=%.0f%n",
        runs.size(),
        stages,
        h2Bytes,
        (double) h2Bytes / runs.size(),
        (double) h2Bytes / stages,
        (double) json / runs.size());

    Path data = work.resolve("chdb");
    FlinkBench.deleteTree(data);
    Files.createDirectories(data);
    Process front =
        new ProcessBuilder(
                python.toString(),
                root.resolve("deploy/clickhouse/chdb_http_front.py").toString(),
                "--port",
                "0",
                "--data",
                data.toString())
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.PIPE)
            .start();
    try {
      int port = portOf(front);
      String url = "jdbc:ch://127.0.0.1:" + port + "/sluice?compress=false";
      try (HistoryStore store = HistoryStores.open(url)) {
        for (int i = 0; i < runs.size(); i += 100) {
          store.upsert(runs.subList(i, Math.min(runs.size(), i + 100)));
        }
      }
      try (Connection c = DriverManager.getConnection(url);
          Statement s = c.createStatement()) {
        for (String t : List.of("app_runs", "stage_profiles", "job_summaries")) {
          s.execute("OPTIMIZE TABLE sluice." + t + " FINAL");
        }
        try (ResultSet rs =
            s.executeQuery(
                "SELECT table, sum(rows), sum(bytes_on_disk), "
                    + "sum(data_uncompressed_bytes) FROM system.parts WHERE database = 'sluice' AND active "
                    + "GROUP BY table ORDER BY table")) {
          while (rs.next()) {
            long rows = rs.getLong(2);
            long disk = rs.getLong(3);
            System.out.printf(
                Locale.ROOT,
                "STORE_BYTES store=clickhouse table=%s rows=%d bytesOnDisk=%d "
                    + "uncompressedBytes=%d bytesOnDiskPerRun=%.0f%n",
                rs.getString(1),
                rows,
                disk,
                rs.getLong(4),
                (double) disk / runs.size());
          }
        }
      }
    } finally {
      front.destroy();
      if (!front.waitFor(30, TimeUnit.SECONDS)) {
        front.destroyForcibly();
      }
    }
    return 0;
  }

  /** The fixture runs, diagnosed, each stored {@code copies} times under another application id. */
  private static List<AppRun> runs(Path root, int copies) throws IOException {
    RuleEngine rules = RuleEngine.loadDefault();
    List<AppRun> base = new ArrayList<>();
    for (String f : FlinkBench.DEFAULT_FIXTURES.split(",")) {
      List<EventLogSource> sources =
          EventLogs.discover(
              List.of(root.resolve("deploy/fixtures/eventlogs/" + f)), new ReadReport());
      AppFolder folder =
          EventLogFolding.fold(sources.get(0), "bench", new ReadReport()).orElseThrow();
      AppRun run = folder.toAppRun(0);
      base.add(run.withDiagnoses(rules.diagnose(run)));
    }
    List<AppRun> out = new ArrayList<>();
    for (int c = 0; c < copies; c++) {
      for (AppRun run : base) {
        String id = String.format(Locale.ROOT, "app-store%06d-%s", c, run.appId());
        out.add(Json.read(Json.write(run).replace(run.appId(), id), AppRun.class));
      }
    }
    return out;
  }

  private static int portOf(Process front) throws IOException {
    BufferedReader out =
        new BufferedReader(new InputStreamReader(front.getInputStream(), StandardCharsets.UTF_8));
    for (String line = out.readLine(); line != null; line = out.readLine()) {
      if (line.startsWith("chdb-http-front listening on 127.0.0.1:")) {
        int port = Integer.parseInt(line.substring(line.lastIndexOf(':') + 1).strip());
        Thread drain =
            new Thread(
                () -> {
                  try {
                    while (out.readLine() != null) {
                      // keep the pipe empty
                    }
                  } catch (IOException e) {
                    // the front ended
                  }
                },
                "chdb-front-output");
        drain.setDaemon(true);
        drain.start();
        return port;
      }
    }
    throw new IllegalStateException("the chdb front ended before it listened");
  }

  private static long treeBytes(Path dir) throws IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      return s.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
    }
  }
}
