package io.sluice.bench.throttle;

import io.sluice.throttle.ess.GatedRpcHandler;
import io.sluice.throttle.ess.testing.ShuffleApp;
import io.sluice.throttle.ess.testing.ShuffleServer;
import io.sluice.throttle.gate.GateConfig;
import io.sluice.throttle.gate.ThrottleGate;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.spark.network.buffer.ManagedBuffer;
import org.apache.spark.network.server.RpcHandler;
import org.apache.spark.network.shuffle.BlockFetchingListener;
import org.apache.spark.network.shuffle.ExternalBlockHandler;
import org.apache.spark.network.shuffle.ExternalBlockStoreClient;
import org.apache.spark.network.util.TransportConf;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Block fetch throughput through Spark's real shuffle server, stock ({@code ExternalBlockHandler})
 * against gated ({@code GatedRpcHandler} over the same kind of handler, gate in ENFORCE with its
 * defaults and a ticking thread, a healthy node: everything admitted). Both servers serve the same
 * real shuffle files; rounds alternate stock/gated so both see the same machine noise; each round
 * is a closed loop of {@code --clients} executors keeping {@code --concurrent} requests of {@code
 * --blocks} blocks in flight for {@code --seconds}. Reports the median blocks/s of each side and
 * the gated side's loss.
 */
@Command(
    name = "overhead-bench",
    mixinStandardHelpOptions = true,
    description =
        "Block fetch throughput of a stock and a gated Spark shuffle server, side by side.")
public final class OverheadBench implements Callable<Integer> {
  @Option(names = "--rounds", defaultValue = "8", description = "Rounds (stock and gated each).")
  int rounds;

  @Option(
      names = "--seconds",
      defaultValue = "4",
      description = "Seconds per side per round (decimals allowed).")
  double seconds;

  @Option(names = "--clients", defaultValue = "4", description = "Executors fetching at once.")
  int clients;

  @Option(
      names = "--concurrent",
      defaultValue = "4",
      description = "Requests each client keeps in flight.")
  int concurrent;

  @Option(names = "--blocks", defaultValue = "50", description = "Blocks per request.")
  int blocks;

  @Option(names = "--block-bytes", defaultValue = "4096", description = "Bytes per block.")
  int blockBytes;

  @Option(
      names = "--work",
      defaultValue = "target/work",
      description = "Directory for the shuffle files.")
  Path work;

  private OverheadBench() {}

  public static void main(String[] args) {
    System.exit(new CommandLine(new OverheadBench()).execute(args));
  }

  @Override
  public Integer call() throws Exception {
    long millis = Math.round(seconds * 1000);
    Files.createDirectories(work);

    TransportConf conf = ShuffleServer.conf(Map.of());
    ShuffleApp app =
        new ShuffleApp(work.resolve("files"), "app-bench", "1", 16, 200, blockBytes, blockBytes);

    ExternalBlockHandler stockHandler = new ExternalBlockHandler(conf, null);
    ExternalBlockHandler gatedDelegate = new ExternalBlockHandler(conf, null);
    ThrottleGate gate = ThrottleGate.builder().config(GateConfig.defaults()).build();
    ScheduledExecutorService ticker =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "gate-tick");
              t.setDaemon(true);
              return t;
            });
    long tick = GateConfig.defaults().get(GateConfig.TICK_MS);
    ticker.scheduleWithFixedDelay(gate::tick, tick, tick, TimeUnit.MILLISECONDS);
    RpcHandler gatedHandler = new GatedRpcHandler(gatedDelegate, gate, 0);

    System.out.printf(
        Locale.ROOT,
        "# %d cores; %d rounds x %.1f s per side, %d clients x %d requests in flight x %d "
            + "blocks of %d bytes; gate ENFORCE defaults (healthy node: all admitted)%n",
        Runtime.getRuntime().availableProcessors(),
        rounds,
        seconds,
        clients,
        concurrent,
        blocks,
        blockBytes);
    List<Double> stock = new ArrayList<>();
    List<Double> gated = new ArrayList<>();
    List<Double> stockCpu = new ArrayList<>();
    List<Double> gatedCpu = new ArrayList<>();
    try (ShuffleServer stockServer = new ShuffleServer(conf, stockHandler);
        ShuffleServer gatedServer = new ShuffleServer(conf, gatedHandler)) {
      List<ExternalBlockStoreClient> cs = new ArrayList<>();
      for (int i = 0; i < clients; i++) {
        cs.add(app.client(conf));
      }
      try {
        app.register(cs.get(0), stockServer.port());
        app.register(cs.get(0), gatedServer.port());
        // warm-up: one round each, not counted
        run(app, cs, stockServer.port(), concurrent, blocks, 2_000, new AtomicLong());
        run(app, cs, gatedServer.port(), concurrent, blocks, 2_000, new AtomicLong());
        for (int r = 0; r < rounds; r++) {
          boolean gatedFirst = r % 2 == 1;
          for (int side = 0; side < 2; side++) {
            boolean isGated = (side == 0) == gatedFirst;
            long cpu0 = serverCpuNanos();
            AtomicLong served = new AtomicLong();
            double bps =
                run(
                    app,
                    cs,
                    isGated ? gatedServer.port() : stockServer.port(),
                    concurrent,
                    blocks,
                    millis,
                    served);
            double cpuPerBlock = (serverCpuNanos() - cpu0) / 1e3 / Math.max(1, served.get());
            (isGated ? gated : stock).add(bps);
            (isGated ? gatedCpu : stockCpu).add(cpuPerBlock);
            System.out.printf(
                Locale.ROOT,
                "round %d %-5s %,10.0f blocks/s %8.1f MB/s  server CPU %6.2f us/block%n",
                r + 1,
                isGated ? "gated" : "stock",
                bps,
                bps * blockBytes / 1e6,
                cpuPerBlock);
          }
        }
      } finally {
        cs.forEach(ExternalBlockStoreClient::close);
      }
    } finally {
      ticker.shutdownNow();
      stockHandler.close();
      gatedDelegate.close();
    }
    double ms = median(stock);
    double mg = median(gated);
    // Per round the two sides ran back to back: the paired loss cancels most of the drift of a
    // shared machine.
    List<Double> paired = new ArrayList<>();
    for (int r = 0; r < stock.size(); r++) {
      paired.add(100.0 * (stock.get(r) - gated.get(r)) / stock.get(r));
    }
    List<Double> sortedPaired = new ArrayList<>(paired);
    sortedPaired.sort(Double::compare);
    List<Double> cpuRatio = new ArrayList<>();
    for (int r = 0; r < stockCpu.size(); r++) {
      cpuRatio.add(100.0 * (gatedCpu.get(r) - stockCpu.get(r)) / stockCpu.get(r));
    }
    System.out.printf(
        Locale.ROOT,
        "OVERHEAD_CPU bytes=%d server_cpu_us_per_block stock_median=%.2f gated_median=%.2f "
            + "paired_extra_median=%.2f%% stock_min=%.2f gated_min=%.2f%n",
        blockBytes,
        median(stockCpu),
        median(gatedCpu),
        median(cpuRatio),
        stockCpu.stream().mapToDouble(Double::doubleValue).min().orElse(0),
        gatedCpu.stream().mapToDouble(Double::doubleValue).min().orElse(0));
    System.out.printf(
        Locale.ROOT,
        "OVERHEAD_BENCH blocks=%d bytes=%d stock_median=%.0f blocks/s gated_median=%.0f "
            + "blocks/s loss_of_medians=%.2f%% paired_loss_median=%.2f%% paired_loss_iqr=[%.2f%%, %.2f%%] "
            + "(gate state %s, held %d)%n",
        blocks,
        blockBytes,
        ms,
        mg,
        100.0 * (ms - mg) / ms,
        median(paired),
        sortedPaired.get(sortedPaired.size() / 4),
        sortedPaired.get((3 * sortedPaired.size()) / 4),
        gate.state(),
        gate.heldCount());
    return 0;
  }

  /** One closed-loop round; returns blocks per second. */
  private static double run(
      ShuffleApp app,
      List<ExternalBlockStoreClient> clients,
      int port,
      int concurrent,
      int blocks,
      long millis,
      AtomicLong served)
      throws InterruptedException {
    AtomicLong done = new AtomicLong();
    AtomicLong totalServed = new AtomicLong();
    AtomicLong failed = new AtomicLong();
    long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
    List<Thread> threads = new ArrayList<>();
    List<Semaphore> slots = new ArrayList<>();
    for (int c = 0; c < clients.size(); c++) {
      ExternalBlockStoreClient client = clients.get(c);
      Semaphore inFlight = new Semaphore(concurrent);
      slots.add(inFlight);
      int first = c * 1_000;
      Thread t =
          new Thread(
              () -> {
                int next = first;
                try {
                  while (System.nanoTime() < end) {
                    if (!inFlight.tryAcquire(50, TimeUnit.MILLISECONDS)) {
                      continue;
                    }
                    String[] ids = app.blocks(next, blocks).toArray(new String[0]);
                    next += blocks;
                    AtomicInteger left = new AtomicInteger(ids.length);
                    client.fetchBlocks(
                        ShuffleServer.HOST,
                        port,
                        app.execId,
                        ids,
                        new BlockFetchingListener() {
                          @Override
                          public void onBlockFetchSuccess(String blockId, ManagedBuffer data) {
                            if (System.nanoTime() < end) {
                              done.incrementAndGet();
                            }
                            totalServed.incrementAndGet();
                            if (left.decrementAndGet() == 0) {
                              inFlight.release();
                            }
                          }

                          @Override
                          public void onBlockFetchFailure(String blockId, Throwable exception) {
                            failed.incrementAndGet();
                            if (left.decrementAndGet() == 0) {
                              inFlight.release();
                            }
                          }
                        },
                        null);
                  }
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
              },
              "bench-client-" + c);
      threads.add(t);
    }
    long start = System.nanoTime();
    threads.forEach(Thread::start);
    for (Thread t : threads) {
      t.join();
    }
    double secs = (end - start) / 1e9;
    // drain: every request of this round answered before the next starts
    for (Semaphore s : slots) {
      s.tryAcquire(concurrent, 60, TimeUnit.SECONDS);
      s.release(concurrent);
    }
    if (failed.get() > 0) {
      throw new IllegalStateException(failed.get() + " blocks failed");
    }
    served.set(totalServed.get());
    return done.get() / secs;
  }

  /**
   * CPU time of the shuffle servers' event-loop threads and the gate's tick thread (only one server
   * is loaded per round). Unlike throughput it hardly moves when other processes take the cores
   * away.
   */
  private static long serverCpuNanos() {
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    long sum = 0;
    for (ThreadInfo t : mx.getThreadInfo(mx.getAllThreadIds())) {
      if (t != null
          && (t.getThreadName().startsWith("shuffle-server")
              || t.getThreadName().equals("gate-tick"))) {
        long c = mx.getThreadCpuTime(t.getThreadId());
        if (c > 0) {
          sum += c;
        }
      }
    }
    return sum;
  }

  private static double median(List<Double> xs) {
    double[] s = xs.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  }
}
