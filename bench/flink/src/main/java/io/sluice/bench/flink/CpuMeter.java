package io.sluice.bench.flink;

import com.sun.management.OperatingSystemMXBean;
import java.io.File;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * CPU time of this JVM, in total and per group of threads (by name), sampled on demand. A figure
 * the neighbours on a shared machine do not move the way they move wall-clock rates: time a thread
 * was runnable but not running is not counted. Threads that end keep what they used up to their
 * last sample, so sample often (the bench samples every 100 ms with the store count).
 */
final class CpuMeter {
  /** Thread-name prefixes of each group, checked in this order; everything else is "other". */
  private static final Map<String, String[]> GROUPS = new LinkedHashMap<>();

  static {
    // Kafka source reader threads: "Source Data Fetcher for Source: spark-events ..." and the task
    // "Source: ..."
    GROUPS.put("source", new String[] {"Source Data Fetcher", "Source: "});
    // the keyed operator's task thread (the store and profiles sink writers are chained to it)
    GROUPS.put("profiles", new String[] {"shuffle-profiles"});
    GROUPS.put(
        "sinkIo",
        new String[] {"kafka-producer-network-thread", "history-store", "profiles-topic"});
    GROUPS.put(
        "broker",
        new String[] {
          "data-plane-kafka",
          "kafka-",
          "broker-",
          "quorum-",
          "raft-",
          "controller-",
          "ExpirationReaper",
          "LogDirFailureHandler",
          "ReplicaFetcher",
          "group-coordinator",
          "transaction-",
          "executor-",
          "log-cleaner",
          "kafka-scheduler",
          "metrics-meter"
        });
  }

  /**
   * The JVM's own native threads, which {@link ThreadMXBean} does not list, by the name Linux shows
   * ({@code /proc/self/task/N/stat}; names are cut to 15 characters).
   */
  private static final Map<String, String[]> NATIVE_GROUPS = new LinkedHashMap<>();

  static {
    NATIVE_GROUPS.put("gc", new String[] {"GC Thread", "G1 "});
    NATIVE_GROUPS.put("vm", new String[] {"VM Thread", "VM Periodic"});
    NATIVE_GROUPS.put("jit", new String[] {"C1 CompilerThre", "C2 CompilerThre"});
  }

  /** Linux clock ticks per second (USER_HZ), the unit of the stat file's CPU times. */
  private static final long TICKS_PER_S = 100;

  private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
  private final OperatingSystemMXBean os =
      (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

  /** Last seen CPU nanoseconds and group of every thread ever sampled. */
  private final Map<Long, long[]> last = new HashMap<>();

  private final Map<Long, String> groupOf = new HashMap<>();

  CpuMeter() {
    threads.setThreadCpuTimeEnabled(true);
  }

  /** Cumulative CPU nanoseconds: "process" (all threads incl. GC and JIT) and each group. */
  synchronized Map<String, Long> sample() {
    long[] ids = threads.getAllThreadIds();
    ThreadInfo[] infos = threads.getThreadInfo(ids);
    for (int i = 0; i < ids.length; i++) {
      long cpu = threads.getThreadCpuTime(ids[i]);
      if (cpu < 0 || infos[i] == null) {
        continue;
      }
      groupOf.put(ids[i], group(infos[i].getThreadName()));
      last.computeIfAbsent(ids[i], id -> new long[1])[0] = cpu;
    }
    Map<String, Long> out = new LinkedHashMap<>();
    out.put("process", os.getProcessCpuTime());
    for (String g : GROUPS.keySet()) {
      out.put(g, 0L);
    }
    out.put("other", 0L);
    last.forEach((id, cpu) -> out.merge(groupOf.get(id), cpu[0], Long::sum));
    nativeThreads(out);
    return out;
  }

  /**
   * Adds the CPU nanoseconds of the JVM's GC ("gc": collector and refinement threads), safepoint
   * ("vm") and compiler ("jit") threads, read from /proc at a 10 ms resolution; nothing where there
   * is no /proc. These threads do not end, so cumulative figures suffice.
   */
  private static void nativeThreads(Map<String, Long> out) {
    for (String g : NATIVE_GROUPS.keySet()) {
      out.put(g, 0L);
    }
    File[] tasks = new File("/proc/self/task").listFiles();
    if (tasks == null) {
      return;
    }
    for (File t : tasks) {
      String stat;
      try {
        stat = Files.readString(t.toPath().resolve("stat"));
      } catch (IOException | RuntimeException e) {
        continue; // the thread ended
      }
      int open = stat.indexOf('(');
      int close = stat.lastIndexOf(')');
      if (open < 0 || close < open) {
        continue;
      }
      String name = stat.substring(open + 1, close);
      String group = null;
      for (Map.Entry<String, String[]> g : NATIVE_GROUPS.entrySet()) {
        for (String prefix : g.getValue()) {
          if (name.startsWith(prefix)) {
            group = g.getKey();
          }
        }
      }
      if (group == null) {
        continue;
      }
      // fields after the name: state(3) ... utime(14) stime(15), numbered from 1 with pid
      String[] f = stat.substring(close + 2).split(" ");
      long ticks = Long.parseLong(f[11]) + Long.parseLong(f[12]);
      out.merge(group, ticks * (1_000_000_000L / TICKS_PER_S), Long::sum);
    }
  }

  private static String group(String name) {
    for (Map.Entry<String, String[]> g : GROUPS.entrySet()) {
      for (String prefix : g.getValue()) {
        if (name.startsWith(prefix)) {
          return g.getKey();
        }
      }
    }
    return "other";
  }

  /**
   * CPU nanoseconds the job's slots used between two samples: the whole process (its GC and JIT
   * included) less the in-JVM broker's threads, which a real deployment runs elsewhere.
   */
  static long slotNanos(Map<String, Long> from, Map<String, Long> to) {
    return to.get("process")
        - from.get("process")
        - (to.get("broker") - from.getOrDefault("broker", 0L));
  }

  /** {@code LABEL=... LABEL.source=...}: CPU µs per event used between two samples. */
  static String perEvent(
      Map<String, Long> from, Map<String, Long> to, double events, String label) {
    StringBuilder sb = new StringBuilder();
    for (String k : to.keySet()) {
      double us = (to.get(k) - from.getOrDefault(k, 0L)) / 1e3 / events;
      sb.append(
          String.format(Locale.ROOT, " %s%s=%.2f", label, k.equals("process") ? "" : "." + k, us));
    }
    return sb.toString();
  }
}
