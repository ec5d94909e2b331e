package io.sluice.bench.flink;

import io.sluice.ingest.envelope.EnvelopeBatch;
import io.sluice.ingest.envelope.EnvelopeCodec;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
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
 * CPU cost per event of decoding the records of the events topic ({@link
 * EnvelopeCodec#decodeRecord}, what the profile operator does first with every record), on the
 * bench's input, the 13 fixture logs, in both formats side by side in every round: one envelope per
 * event (as the listener sends) and pruned batches (as the event-log collector sends). Thread CPU
 * time of this thread only, so a loaded machine slows it down without changing the figure much.
 *
 * <pre>
 * DecodeBench --root REPO [--seconds 20] [--rounds 5]
 * </pre>
 *
 * Prints {@code DECODE_BENCH envelopes=<format> nsPerEvent=<median> rounds=<all> ...} per format.
 */
@Command(
    name = "decode-bench",
    mixinStandardHelpOptions = true,
    description =
        "CPU per event of decoding the events topic's records, single envelopes vs pruned batches.")
public final class DecodeBench implements Callable<Integer> {
  @Option(
      names = "--root",
      defaultValue = ".",
      description = "The repository (for the fixture logs).")
  String root;

  @Option(names = "--seconds", defaultValue = "20", description = "Seconds per format per round.")
  long seconds;

  @Option(names = "--rounds", defaultValue = "5", description = "Rounds.")
  int rounds;

  private DecodeBench() {}

  public static void main(String[] args) {
    System.exit(new CommandLine(new DecodeBench()).execute(args));
  }

  @Override
  public Integer call() throws Exception {
    int perBatch = EnvelopeBatch.DEFAULT_MAX_EVENTS;
    List<byte[]> envelopes = new ArrayList<>();
    List<byte[]> batches = new ArrayList<>();
    for (FlinkBench.Log log : FlinkBench.logs(Path.of(root), FlinkBench.DEFAULT_FIXTURES)) {
      for (int k = 0; k < log.lines().size(); k++) {
        envelopes.add(FlinkBench.envelope(log, "app-decode-0001", k));
      }
      for (int k = 0; k < log.lines().size(); k += perBatch) {
        batches.add(FlinkBench.batch(log, "app-decode-0001", k, perBatch));
      }
    }
    int events = envelopes.size();
    ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
    double[][] ns = new double[2][rounds];
    long sink = 0;
    for (int r = -1; r < rounds; r++) { // round -1 warms the JIT up
      for (int f = 0; f < 2; f++) { // the two formats one after the other in every round
        List<byte[]> records = f == 0 ? envelopes : batches;
        long passes = 0;
        long c0 = cpu.getCurrentThreadCpuTime();
        long until = c0 + seconds * 1_000_000_000L / (r < 0 ? 2 : 1);
        while (cpu.getCurrentThreadCpuTime() < until) {
          for (byte[] e : records) {
            sink += EnvelopeCodec.decodeRecord(e).events().size();
          }
          passes++;
        }
        if (r >= 0) {
          ns[f][r] = (double) (cpu.getCurrentThreadCpuTime() - c0) / (passes * events);
        }
      }
    }
    String[] names = {"single", "batched-" + perBatch};
    for (int f = 0; f < 2; f++) {
      List<byte[]> records = f == 0 ? envelopes : batches;
      long bytes = records.stream().mapToLong(x -> x.length).sum();
      double[] sorted = ns[f].clone();
      Arrays.sort(sorted);
      double median = sorted[rounds / 2];
      System.out.printf(
          Locale.ROOT,
          "DECODE_BENCH envelopes=%s nsPerEvent=%.0f rounds=%s records=%d events=%d "
              + "bytesPerEvent=%.0f mbPerCpuS=%.0f check=%d%n",
          names[f],
          median,
          Arrays.toString(Arrays.stream(ns[f]).map(Math::rint).toArray()),
          records.size(),
          events,
          (double) bytes / events,
          bytes / (double) events / median * 1e3,
          sink % 7);
    }
    return 0;
  }
}
