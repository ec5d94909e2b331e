package io.sluice.bench.flink;

import io.sluice.ingest.envelope.EnvelopeBatch;
import io.sluice.ingest.parse.EventPruner;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * CPU the event-log collector spends per line to prepare what it publishes: {@link
 * EventPruner#prune} and {@link EnvelopeBatch} (add, and encode every {@value
 * EnvelopeBatch#DEFAULT_MAX_EVENTS} lines), on the lines of the 13 fixture logs. Thread CPU time of
 * this thread only. Reading and decompressing the log and the Kafka producer are not included (they
 * were the collector's costs before too).
 *
 * <pre>
 * EdgeBench --root REPO [--seconds 3] [--rounds 5]
 * </pre>
 *
 * Prints {@code EDGE_BENCH nsPerLine=<median> rounds=<all> bytesInPerLine=... bytesOutPerLine=...}.
 */
@Command(
    name = "edge-bench",
    mixinStandardHelpOptions = true,
    description = "CPU per line of the collector's pruning, batching and encoding.")
public final class EdgeBench implements Callable<Integer> {
  @Option(
      names = "--root",
      defaultValue = ".",
      description = "The repository (for the fixture logs).")
  String root;

  @Option(names = "--seconds", defaultValue = "3", description = "Seconds per round.")
  long seconds;

  @Option(names = "--rounds", defaultValue = "5", description = "Rounds.")
  int rounds;

  private EdgeBench() {}

  public static void main(String[] args) {
    System.exit(new CommandLine(new EdgeBench()).execute(args));
  }

  @Override
  public Integer call() throws Exception {
    List<byte[]> lines = new ArrayList<>();
    for (FlinkBench.Log log : FlinkBench.logs(Path.of(root), FlinkBench.DEFAULT_FIXTURES)) {
      for (String line : log.lines()) {
        lines.add(line.getBytes(StandardCharsets.UTF_8));
      }
    }
    long in = lines.stream().mapToLong(b -> b.length).sum();
    long out = 0;
    EnvelopeBatch batch =
        new EnvelopeBatch(
            "bench",
            "app-edge-0001",
            "",
            EnvelopeBatch.DEFAULT_MAX_EVENTS,
            EnvelopeBatch.DEFAULT_MAX_BYTES);
    ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
    double[] ns = new double[rounds];
    for (int r = -1; r < rounds; r++) { // round -1 warms the JIT up
      long passes = 0;
      long c0 = cpu.getCurrentThreadCpuTime();
      long until = c0 + seconds * 1_000_000_000L / (r < 0 ? 2 : 1);
      out = 0;
      while (cpu.getCurrentThreadCpuTime() < until) {
        long seq = 0;
        for (byte[] line : lines) {
          byte[] event = EventPruner.prune(line);
          if (!batch.add(seq, event)) {
            out += batch.encode(1).length;
            batch.clear();
            batch.add(seq, event);
          }
          seq++;
        }
        out += batch.encode(1).length;
        batch.clear();
        passes++;
      }
      if (r >= 0) {
        ns[r] = (double) (cpu.getCurrentThreadCpuTime() - c0) / (passes * lines.size());
        out /= passes;
      }
    }
    double[] sorted = ns.clone();
    Arrays.sort(sorted);
    System.out.printf(
        Locale.ROOT,
        "EDGE_BENCH nsPerLine=%.0f rounds=%s lines=%d bytesInPerLine=%.0f "
            + "bytesOutPerLine=%.0f%n",
        sorted[rounds / 2],
        Arrays.toString(Arrays.stream(ns).map(Math::rint).toArray()),
        lines.size(),
        (double) in / lines.size(),
        (double) out / lines.size());
    return 0;
  }
}
