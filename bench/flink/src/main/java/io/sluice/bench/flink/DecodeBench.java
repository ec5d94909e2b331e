package io.sluice.bench.flink;

import io.sluice.ingest.envelope.EnvelopeCodec;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * CPU cost of decoding one event envelope ({@link EnvelopeCodec#decode}, what the profile operator does first with
 * every record), on the bench's input: the envelopes of the 13 fixture logs. Thread CPU time of this thread only,
 * so a loaded machine slows it down without changing the figure much; run it with two builds' jars side by side.
 *
 * <pre>
 * DecodeBench --root REPO [--seconds 20] [--rounds 5]
 * </pre>
 * Prints {@code DECODE_BENCH nsPerEvent=<median> rounds=<all> mbPerCpuS=...}.
 */
public final class DecodeBench {
  private DecodeBench() {}

  public static void main(String[] args) throws Exception {
    String root = ".";
    long seconds = 20;
    int rounds = 5;
    for (int i = 0; i + 1 < args.length; i += 2) {
      switch (args[i]) {
        case "--root" -> root = args[i + 1];
        case "--seconds" -> seconds = Long.parseLong(args[i + 1]);
        case "--rounds" -> rounds = Integer.parseInt(args[i + 1]);
        default -> throw new IllegalArgumentException("unknown option " + args[i]);
      }
    }
    List<byte[]> envelopes = new ArrayList<>();
    for (FlinkBench.Log log : FlinkBench.logs(Path.of(root), FlinkBench.DEFAULT_FIXTURES)) {
      for (int k = 0; k < log.lines().size(); k++) {
        envelopes.add(FlinkBench.envelope(log, "app-decode-0001", k));
      }
    }
    long bytes = envelopes.stream().mapToLong(b -> b.length).sum();
    ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
    double[] ns = new double[rounds];
    long sink = 0;
    for (int r = -1; r < rounds; r++) { // round -1 warms the JIT up
      long passes = 0;
      long c0 = cpu.getCurrentThreadCpuTime();
      long until = c0 + seconds * 1_000_000_000L / (r < 0 ? 2 : 1);
      while (cpu.getCurrentThreadCpuTime() < until) {
        for (byte[] e : envelopes) {
          sink += EnvelopeCodec.decode(e).seq();
        }
        passes++;
      }
      if (r >= 0) {
        ns[r] = (double) (cpu.getCurrentThreadCpuTime() - c0) / (passes * envelopes.size());
      }
    }
    double[] sorted = ns.clone();
    Arrays.sort(sorted);
    double median = sorted[rounds / 2];
    System.out.printf(Locale.ROOT, "DECODE_BENCH nsPerEvent=%.0f rounds=%s envelopes=%d bytesPerEnvelope=%.0f "
            + "mbPerCpuS=%.0f check=%d%n", median, Arrays.toString(Arrays.stream(ns).map(Math::rint).toArray()),
        envelopes.size(), (double) bytes / envelopes.size(), bytes / (double) envelopes.size() / median * 1e3,
        sink % 7);
  }
}
