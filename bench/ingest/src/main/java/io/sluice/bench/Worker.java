package io.sluice.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * One forked measurement: {@code Worker CONTENDER FILE WARMUP ITERS}. Runs the contender over the
 * file WARMUP times (and at least 10 s) unmeasured, then ITERS times measured, all on the main
 * thread, and prints one line per measured iteration for the {@link Driver}: {@code ITER <i> <wall
 * ns> <main-thread CPU ns> <process CPU ns> <count>}, then {@code BLOCK <wall ns> <process CPU ns>}
 * over all measured iterations.
 */
@Command(name = "worker", description = "One forked measurement of the ingest bench.")
public final class Worker implements Callable<Integer> {
  @Parameters(index = "0", description = "The contender (Contender.named).")
  String contender;

  @Parameters(index = "1", description = "The event log to fold.")
  Path file;

  @Parameters(index = "2", description = "Unmeasured iterations first (and at least 10 s).")
  int warmup;

  @Parameters(index = "3", description = "Measured iterations.")
  int iters;

  private Worker() {}

  public static void main(String[] args) {
    System.exit(new CommandLine(new Worker()).execute(args));
  }

  @Override
  public Integer call() throws Exception {
    Contender c = Contender.named(contender);
    if (!Files.isRegularFile(file)) {
      throw new IllegalArgumentException("no such file " + file);
    }
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    com.sun.management.OperatingSystemMXBean os =
        (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    long expected = -1;
    long warmStart = System.nanoTime();
    for (int i = 0; i < warmup || System.nanoTime() - warmStart < 10_000_000_000L; i++) {
      expected = check(expected, c.run(file), file);
    }
    long blockProc0 = os.getProcessCpuTime();
    long blockWall0 = System.nanoTime();
    for (int i = 0; i < iters; i++) {
      long cpu0 = threads.getCurrentThreadCpuTime();
      long proc0 = os.getProcessCpuTime();
      long t0 = System.nanoTime();
      long count = c.run(file);
      long wall = System.nanoTime() - t0;
      long proc = os.getProcessCpuTime() - proc0;
      long cpu = threads.getCurrentThreadCpuTime() - cpu0;
      expected = check(expected, count, file);
      System.out.println("ITER " + i + " " + wall + " " + cpu + " " + proc + " " + count);
    }
    // The process CPU clock ticks in 10 ms steps here: the block total is what the Driver uses.
    System.out.println(
        "BLOCK " + (System.nanoTime() - blockWall0) + " " + (os.getProcessCpuTime() - blockProc0));
    if (c instanceof SluiceFold s) {
      System.out.println("TASKS " + s.profiledTasks());
    }
    System.out.println("UNIT " + c.unit());
    System.out.flush();
    return 0;
  }

  private static long check(long expected, long got, Path file) {
    if (expected >= 0 && expected != got) {
      throw new IllegalStateException(
          "count changed between iterations on " + file + ": " + expected + " -> " + got);
    }
    return got;
  }
}
