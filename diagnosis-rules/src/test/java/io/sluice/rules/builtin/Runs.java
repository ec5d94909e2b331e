package io.sluice.rules.builtin;

import io.sluice.model.AppRun;
import io.sluice.model.StageProfile;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Builders of constructed AppRuns and StageProfiles for rule tests. */
final class Runs {
  private Runs() {}

  static Stage stage(int id) {
    return new Stage(id);
  }

  static Run run(String sparkVersion) {
    return new Run(sparkVersion);
  }

  static final class Run {
    private final String version;
    private final Map<String, String> conf = new LinkedHashMap<>();
    private final List<StageProfile> stages = new ArrayList<>();
    private String status = "SUCCEEDED";

    Run(String version) {
      this.version = version;
    }

    Run conf(String k, String v) {
      conf.put(k, v);
      return this;
    }

    Run status(String s) {
      status = s;
      return this;
    }

    Run stage(Stage s) {
      stages.add(s.build());
      return this;
    }

    AppRun build() {
      return new AppRun(
          "c",
          "app-1",
          "1",
          "c/q/u/job",
          "job",
          "u",
          "q",
          null,
          0,
          1,
          status,
          version,
          conf,
          null,
          stages,
          null,
          0);
    }
  }

  /**
   * Defaults: 8 successful tasks, nothing read or written. Derived figures are computed like the
   * folding does.
   */
  static final class Stage {
    final int id;
    int attempt;
    int tasks = 8;
    long ok = 8;
    long failed;
    long fetchFailed;
    long write;
    long writeRecords;
    long remoteRead;
    long localRead;
    long remoteBlocks;
    long localBlocks;
    long fetchWaitMs;
    long memSpill;
    long diskSpill;
    long runMs = 8000;
    long maxTaskMs = 1000;
    int maps;
    long readMax = -1;
    long readMedian = -1;
    long inputBytes;

    Stage(int id) {
      this.id = id;
    }

    Stage attempt(int a) {
      attempt = a;
      return this;
    }

    Stage tasks(int n) {
      tasks = n;
      ok = n;
      return this;
    }

    Stage fetchFailed(long n) {
      fetchFailed = n;
      return this;
    }

    Stage write(long bytes, long records) {
      write = bytes;
      writeRecords = records;
      return this;
    }

    /** Reads a shuffle of {@code maps} map partitions. */
    Stage read(long remoteBytes, long remoteBlocks, long localBytes, long localBlocks, int maps) {
      remoteRead = remoteBytes;
      this.remoteBlocks = remoteBlocks;
      localRead = localBytes;
      this.localBlocks = localBlocks;
      this.maps = maps;
      return this;
    }

    /** Input bytes its tasks read (above 0: a file scan). */
    Stage input(long bytes) {
      inputBytes = bytes;
      return this;
    }

    Stage fetchWait(long ms) {
      fetchWaitMs = ms;
      return this;
    }

    Stage spill(long memory, long disk) {
      memSpill = memory;
      diskSpill = disk;
      return this;
    }

    Stage runMs(long ms) {
      runMs = ms;
      return this;
    }

    Stage maxTaskMs(long ms) {
      maxTaskMs = ms;
      return this;
    }

    Stage readMaxMedian(long max, long median) {
      readMax = max;
      readMedian = median;
      return this;
    }

    StageProfile build() {
      long read = remoteRead + localRead;
      double avgBlock = remoteBlocks == 0 ? 0 : (double) remoteRead / remoteBlocks;
      double waitShare = runMs == 0 ? 0 : Math.min(1, (double) fetchWaitMs / runMs);
      long max = readMax >= 0 ? readMax : (ok == 0 ? 0 : read / ok);
      long median = readMedian >= 0 ? readMedian : (ok == 0 ? 0 : read / ok);
      double skew = read == 0 ? 0 : (median == 0 ? 0 : (double) max / median);
      boolean reads = read > 0 || remoteBlocks + localBlocks > 0;
      return new StageProfile(
          "app-1",
          id,
          attempt,
          "stage " + id,
          tasks,
          ok,
          failed,
          fetchFailed,
          write,
          writeRecords,
          remoteRead,
          localRead,
          remoteBlocks,
          localBlocks,
          fetchWaitMs,
          0,
          memSpill,
          diskSpill,
          runMs,
          maxTaskMs,
          avgBlock,
          waitShare,
          skew,
          reads ? maps : 0,
          reads ? tasks : 0,
          0,
          0,
          0,
          max,
          median,
          0,
          inputBytes);
    }
  }
}
