package io.sluice.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Runs the ingest benchmark: for every round, for every log, every contender in its own forked JVM
 * (same java, same JVM options), the order rotated each round so that slow and fast moments of the
 * shared machine fall on every contender alike. Each fork warms up and measures a few iterations
 * ({@link Worker}); a round's value of a contender is the median of its fork's iterations (process
 * CPU: the mean over the measured block, as that clock ticks in 10 ms steps). Reported: the median
 * over rounds and the [min–max] of the rounds, and ratios taken round by round. Writes markdown to
 * --out and to stdout.
 */
@Command(
    name = "Driver",
    mixinStandardHelpOptions = true,
    description = "The ingest benchmark: every contender on every log, each in its own forked JVM.")
public final class Driver implements Callable<Integer> {
  static final List<String> ALL =
      List.of("sluice", "spark-replay", "jackson-lines", "jackson-stream", "byte-scan");

  record Log(String name, Path file, List<String> contenders, boolean primary) {}

  /** One fork's result: per-iteration wall, main-thread CPU and process CPU, in ns. */
  record Fork(long[] wall, long[] cpu, long blockProc, long count, long tasks) {
    double wallNs() {
      return median(wall);
    }

    double cpuNs() {
      return median(cpu);
    }

    double procNs() {
      return (double) blockProc / wall.length;
    }
  }

  @Option(
      names = "--sluice-cp",
      required = true,
      description = "Class path of the Sluice and Jackson contenders.")
  private String sluiceCp;

  @Option(
      names = "--spark-cp",
      required = true,
      description = "Class path of Spark's replay contender.")
  private String sparkCp;

  @Option(names = "--java", description = "The java of the forks (default: this JVM's).")
  private String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();

  @Option(
      names = "--jvm-opts",
      description = "JVM options of every fork, space-separated (default: ${DEFAULT-VALUE}).")
  private String jvmOptions = "-Xms1g -Xmx1g -XX:+UseG1GC";

  @Option(names = "--rounds", description = "Rounds (default: ${DEFAULT-VALUE}).")
  private int rounds = 5;

  @Option(
      names = "--warmup",
      description = "Warm-up iterations per fork (default: ${DEFAULT-VALUE}).")
  private int warmup = 5;

  @Option(
      names = "--iters",
      description = "Measured iterations per fork (default: ${DEFAULT-VALUE}).")
  private int iters = 5;

  @Option(
      names = "--log",
      paramLabel = "NAME=PATH[:contender,...]",
      required = true,
      description = "A log of the main table, with the contenders to run on it (default: all).")
  private List<String> primaryLogs = new ArrayList<>();

  @Option(
      names = "--extra-log",
      paramLabel = "NAME=PATH[:contender,...]",
      description = "A log of the extra lines, same form as --log.")
  private List<String> extraLogs = new ArrayList<>();

  @Option(names = "--out", description = "Markdown report file.")
  private Path out;

  @Option(
      names = "--profile-dir",
      description = "Where the JFR-profiled forks write their recordings.")
  private Path profileDir;

  @Option(names = "--command", description = "The command line to quote in the report.")
  private String command = "";

  private List<String> jvmOpts;
  private final List<Log> logs = new ArrayList<>();

  public static void main(String[] args) {
    System.exit(new CommandLine(new Driver()).execute(args));
  }

  @Override
  public Integer call() throws Exception {
    jvmOpts = List.of(jvmOptions.trim().split("\\s+"));
    primaryLogs.forEach(spec -> logs.add(log(spec, true)));
    extraLogs.forEach(spec -> logs.add(log(spec, false)));
    run();
    return 0;
  }

  /**
   * {@code NAME=PATH[:contender,contender]}: a trailing part after the last colon names contenders.
   */
  static Log log(String spec, boolean primary) {
    int eq = spec.indexOf('=');
    if (eq <= 0) {
      throw new IllegalArgumentException("a log is NAME=PATH[:contender,...], was " + spec);
    }
    String rest = spec.substring(eq + 1);
    int colon = rest.lastIndexOf(':');
    List<String> cs = ALL;
    if (colon > 0 && !rest.substring(colon + 1).contains("/")) {
      cs = List.of(rest.substring(colon + 1).split(","));
      rest = rest.substring(0, colon);
    }
    return new Log(spec.substring(0, eq), Path.of(rest), cs, primary);
  }

  private void run() throws Exception {
    String loadBefore = Files.readString(Path.of("/proc/loadavg")).trim();
    // results.get(log).get(contender) = forks, one per round
    Map<String, Map<String, List<Fork>>> results = new LinkedHashMap<>();
    for (Log log : logs) {
      Map<String, List<Fork>> m = new LinkedHashMap<>();
      log.contenders().forEach(c -> m.put(c, new ArrayList<>()));
      results.put(log.name(), m);
    }
    for (int r = 0; r < rounds; r++) {
      for (Log log : logs) {
        List<String> order = rotate(log.contenders(), r);
        for (String c : order) {
          Fork f = fork(c, log.file(), List.of());
          results.get(log.name()).get(c).add(f);
          System.err.printf(
              Locale.ROOT,
              "round %d/%d %-10s %-15s wall %8.1f ms  cpu %8.1f ms  proc %8.1f ms  count %d%n",
              r + 1,
              rounds,
              log.name(),
              c,
              f.wallNs() / 1e6,
              f.cpuNs() / 1e6,
              f.procNs() / 1e6,
              f.count());
        }
      }
    }
    String loadAfter = Files.readString(Path.of("/proc/loadavg")).trim();
    Map<String, String> profiles = new LinkedHashMap<>();
    if (profileDir != null) {
      Files.createDirectories(profileDir);
      Log first = logs.get(0);
      for (String c : List.of("sluice", "spark-replay")) {
        if (first.contenders().contains(c)) {
          profiles.put(c, profile(c, first));
        }
      }
    }
    String md = render(results, loadBefore, loadAfter, profiles);
    System.out.println(md);
    if (out != null) {
      Files.createDirectories(out.toAbsolutePath().getParent());
      Files.writeString(out, md);
      System.err.println("wrote " + out);
    }
  }

  private static List<String> rotate(List<String> cs, int r) {
    List<String> o = new ArrayList<>(cs);
    Collections.rotate(o, -(r % Math.max(1, o.size())));
    return o;
  }

  private Fork fork(String contender, Path file, List<String> extraOpts)
      throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>();
    cmd.add(java);
    cmd.addAll(jvmOpts);
    cmd.addAll(extraOpts);
    cmd.add("-cp");
    cmd.add(contender.startsWith("spark") ? sparkCp : sluiceCp);
    cmd.add(Worker.class.getName());
    cmd.add(contender);
    cmd.add(file.toString());
    cmd.add(Integer.toString(warmup));
    cmd.add(Integer.toString(iters));
    Path errLog = Files.createTempFile("sluice-bench-", ".err");
    Process p = new ProcessBuilder(cmd).redirectError(errLog.toFile()).start();
    List<long[]> rows = new ArrayList<>();
    long tasks = -1;
    long blockProc = -1;
    try (BufferedReader r =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line = r.readLine(); line != null; line = r.readLine()) {
        String[] f = line.split(" ");
        if (f[0].equals("ITER")) {
          rows.add(
              new long[] {
                Long.parseLong(f[2]),
                Long.parseLong(f[3]),
                Long.parseLong(f[4]),
                Long.parseLong(f[5])
              });
        } else if (f[0].equals("BLOCK")) {
          blockProc = Long.parseLong(f[2]);
        } else if (f[0].equals("TASKS")) {
          tasks = Long.parseLong(f[1]);
        }
      }
    }
    int rc = p.waitFor();
    if (rc != 0 || rows.size() != iters || blockProc < 0) {
      String err = Files.readString(errLog);
      throw new IllegalStateException(
          contender
              + " on "
              + file
              + " failed (exit "
              + rc
              + "):\n"
              + err.substring(Math.max(0, err.length() - 4000)));
    }
    Files.deleteIfExists(errLog);
    long[] wall = rows.stream().mapToLong(x -> x[0]).toArray();
    long[] cpu = rows.stream().mapToLong(x -> x[1]).toArray();
    return new Fork(wall, cpu, blockProc, rows.get(0)[3], tasks);
  }

  /**
   * One more fork with JFR's execution sampler; returns the top self frames and a package
   * breakdown.
   */
  private String profile(String contender, Log log) throws Exception {
    Path jfrFile = profileDir.resolve(contender + ".jfr").toAbsolutePath();
    fork(
        contender,
        log.file(),
        List.of("-XX:StartFlightRecording=filename=" + jfrFile + ",settings=profile"));
    Path jfrBin = Path.of(Path.of(java).getParent().toString(), "jfr");
    Process p =
        new ProcessBuilder(
                jfrBin.toString(),
                "print",
                "--stack-depth",
                "96",
                "--events",
                "jdk.ExecutionSample",
                jfrFile.toString())
            .redirectErrorStream(true)
            .start();
    Map<String, Integer> self = new TreeMap<>();
    Map<String, Integer> area = new TreeMap<>();
    int samples = 0;
    try (BufferedReader r =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      boolean expectTop = false;
      String top = null;
      List<String> stack = new ArrayList<>();
      for (String line = r.readLine(); line != null; line = r.readLine()) {
        String t = line.trim();
        if (t.startsWith("stackTrace = [")) {
          expectTop = true;
          stack.clear();
          continue;
        }
        if (expectTop && t.equals("]")) {
          expectTop = false;
          if (top != null && onWorkerThread(stack)) {
            samples++;
            self.merge(top, 1, Integer::sum);
            area.merge(area(stack), 1, Integer::sum);
          }
          top = null;
          continue;
        }
        if (expectTop && !t.isEmpty() && !t.equals("...")) {
          String frame = t.replaceAll("\\s+line:.*$", "");
          if (top == null) {
            top = frame;
          }
          stack.add(frame);
        }
      }
    }
    p.waitFor();
    StringBuilder sb = new StringBuilder();
    sb.append("Profile of `")
        .append(contender)
        .append("` on ")
        .append(log.name())
        .append(": ")
        .append(samples)
        .append(" JFR execution samples of the benchmark thread (`")
        .append(jfrFile.getFileName())
        .append("` under ")
        .append(profileDir)
        .append("), warm-up included.\n\n");
    sb.append("| where the time goes (deepest recognised frame) | share |\n|---|---:|\n");
    for (Map.Entry<String, Integer> e : sortDesc(area)) {
      sb.append(
          String.format(
              Locale.ROOT, "| %s | %.0f%% |%n", e.getKey(), 100.0 * e.getValue() / samples));
    }
    sb.append("\n| top self frame | share |\n|---|---:|\n");
    int total = Math.max(1, samples);
    sortDesc(self).stream()
        .limit(12)
        .forEach(
            e ->
                sb.append(
                    String.format(
                        Locale.ROOT,
                        "| `%s` | %.1f%% |%n",
                        e.getKey().replace("|", "\\|"),
                        100.0 * e.getValue() / total)));
    return sb.toString();
  }

  /** A sample of the worker's measuring thread: its stack passes through {@code Worker.call}. */
  private static boolean onWorkerThread(List<String> stack) {
    return stack.stream().anyMatch(f -> f.startsWith("io.sluice.bench.Worker.call"));
  }

  /** Attributes a sample to the first frame (from the top) that belongs to a known layer. */
  private static String area(List<String> stack) {
    for (String f : stack) {
      if (f.startsWith("io.sluice.ingest.eventlog.")) {
        return "Sluice line reading (SourceLineReader, incl. stream reads)";
      }
      if (f.startsWith("io.sluice.ingest.parse.Utf8")) {
        return "Sluice UTF-8 validation (parse.Utf8)";
      }
      if (f.startsWith("io.sluice.ingest.parse.ValueReader")) {
        return "Sluice value reads (parse.ValueReader, incl. Jackson number parsing)";
      }
      if (f.startsWith("com.fasterxml.jackson.core.")) {
        return "Jackson streaming parser (jackson-core)";
      }
      if (f.startsWith("com.fasterxml.jackson.databind.")) {
        return "Jackson databind (trees)";
      }
      if (f.startsWith("io.sluice.ingest.parse.")) {
        return "Sluice parser (SparkEventParser: field dispatch)";
      }
      if (f.startsWith("io.sluice.ingest.fold.") || f.startsWith("io.sluice.model.")) {
        return "Sluice folding (AppFolder, StageAttemptFold)";
      }
      if (f.startsWith("org.apache.spark.util.JsonProtocol")) {
        return "Spark JsonProtocol (tree to events)";
      }
      if (f.startsWith("org.apache.spark.scheduler.")
          || f.startsWith("org.apache.spark.util.ListenerBus")) {
        return "Spark listener bus / events";
      }
      if (f.startsWith("scala.io.") || f.startsWith("sun.nio.cs.") || f.startsWith("java.io.")) {
        return "line reading / UTF-8 decoding (scala.io, java.io, sun.nio.cs)";
      }
    }
    return "other (" + (stack.isEmpty() ? "?" : stack.get(0).replaceAll("\\(.*$", "")) + ")";
  }

  private static List<Map.Entry<String, Integer>> sortDesc(Map<String, Integer> m) {
    return m.entrySet().stream()
        .sorted((a, b) -> b.getValue() - a.getValue())
        .collect(Collectors.toList());
  }

  // ---- report ----

  private String render(
      Map<String, Map<String, List<Fork>>> results,
      String loadBefore,
      String loadAfter,
      Map<String, String> profiles)
      throws IOException {
    StringBuilder sb = new StringBuilder();
    sb.append("## Ingest benchmark, ")
        .append(LocalDateTime.now().format(DateTimeFormatter.ISO_LOCAL_DATE_TIME).substring(0, 16))
        .append("\n\n");
    sb.append("- Machine: ")
        .append(Runtime.getRuntime().availableProcessors())
        .append(" CPUs (nproc), ")
        .append(cpuModel())
        .append(", ")
        .append(memTotal())
        .append("\n");
    sb.append("- Java: ")
        .append(System.getProperty("java.vm.name"))
        .append(' ')
        .append(System.getProperty("java.runtime.version"))
        .append(" (")
        .append(System.getProperty("java.vm.vendor"))
        .append("); every contender forked with `")
        .append(String.join(" ", jvmOpts))
        .append("`\n");
    sb.append("- Load average (1/5/15 min) before: ")
        .append(loadBefore.split(" ", 4)[0])
        .append(' ')
        .append(loadBefore.split(" ")[1])
        .append(' ')
        .append(loadBefore.split(" ")[2])
        .append("; after: ")
        .append(loadAfter.split(" ")[0])
        .append(' ')
        .append(loadAfter.split(" ")[1])
        .append(' ')
        .append(loadAfter.split(" ")[2])
        .append(" (the 2 cores are shared with other work)\n");
    sb.append("- Rounds: ")
        .append(rounds)
        .append(" (contender order rotated each round); per fork ")
        .append(warmup)
        .append(" warm-up iterations (and at least 10 s) then ")
        .append(iters)
        .append(" measured iterations, single-threaded\n");
    if (!command.isEmpty()) {
      sb.append("- Command: `").append(command).append("`\n");
    }
    sb.append(
        "\n### Inputs\n\n| log | file | bytes | events (lines) | task ends | tasks in stage profiles |\n"
            + "|---|---|---:|---:|---:|---:|\n");
    for (Log log : logs) {
      List<Fork> s = results.get(log.name()).get("sluice");
      long events = s != null ? s.get(0).count() : -1;
      long tasks = s != null ? s.get(0).tasks() : -1;
      sb.append(
          String.format(
              Locale.ROOT,
              "| %s | `%s` | %,d | %s | %s | %s |%n",
              log.name(),
              log.file().getFileName(),
              Files.size(log.file()),
              events < 0 ? "" : String.format(Locale.ROOT, "%,d", events),
              log.primary()
                  ? String.format(Locale.ROOT, "%,d", taskEnds(log.file()))
                  : "(compressed)",
              tasks < 0 ? "" : String.format(Locale.ROOT, "%,d", tasks)));
    }
    sb.append(
        "\nThroughput: MB = 10^6 bytes of the file as stored (uncompressed logs: the JSON bytes). "
            + "\"per core\" = over the CPU time of the whole JVM process during the measured iterations (benchmark thread + GC + "
            + "JIT + everything else the JVM did); \"wall\" = elapsed time of the single benchmark thread; \"thread CPU\" = CPU time of that "
            + "thread only. Median over rounds [min–max over rounds].\n");
    for (Log log : logs) {
      Map<String, List<Fork>> byC = results.get(log.name());
      List<Fork> s = byC.get("sluice");
      long events = s != null ? s.get(0).count() : -1;
      long bytes = Files.size(log.file());
      sb.append("\n### ")
          .append(log.name())
          .append(" (")
          .append(String.format(Locale.ROOT, "%.1f MB", bytes / 1e6))
          .append(
              ")\n\n| contender | events/s per core | MB/s per core | MB/s wall | MB/s thread CPU | what it counted |\n"
                  + "|---|---:|---:|---:|---:|---:|\n");
      for (Map.Entry<String, List<Fork>> e : byC.entrySet()) {
        List<Fork> forks = e.getValue();
        double[] proc = forks.stream().mapToDouble(Fork::procNs).toArray();
        double[] wall = forks.stream().mapToDouble(Fork::wallNs).toArray();
        double[] cpu = forks.stream().mapToDouble(Fork::cpuNs).toArray();
        sb.append(
            String.format(
                Locale.ROOT,
                "| %s | %s | %s | %s | %s | %,d %s |%n",
                e.getKey(),
                events < 0 ? "" : rate(events, proc, 1),
                rate(bytes, proc, 1e6),
                rate(bytes, wall, 1e6),
                rate(bytes, cpu, 1e6),
                forks.get(0).count(),
                e.getKey().startsWith("jackson")
                    ? "tokens"
                    : e.getKey().equals("byte-scan") ? "objects" : "events"));
      }
      if (log.primary() && byC.containsKey("sluice")) {
        sb.append(
            "\n| ratio (round by round) | per core | wall | thread CPU | target |\n|---|---:|---:|---:|---|\n");
        if (byC.containsKey("spark-replay")) {
          sb.append(
              ratioRow(
                  "Spark replay time / Sluice time", byC.get("spark-replay"), s, "≥ 3×", 3, true));
        }
        for (String floor : List.of("jackson-lines", "jackson-stream", "byte-scan")) {
          if (byC.containsKey(floor)) {
            boolean judged = floor.equals("jackson-lines");
            sb.append(
                ratioRow(
                    "Sluice time / " + floor + " time",
                    s,
                    byC.get(floor),
                    judged ? "≤ 2×" : "(information)",
                    judged ? 2 : Double.NaN,
                    false));
          }
        }
      }
    }
    for (Map.Entry<String, String> e : profiles.entrySet()) {
      sb.append("\n### Profile: ").append(e.getKey()).append("\n\n").append(e.getValue());
    }
    return sb.toString();
  }

  private String ratioRow(
      String label, List<Fork> num, List<Fork> den, String target, double bound, boolean atLeast) {
    double[][] r = new double[3][num.size()];
    for (int i = 0; i < num.size(); i++) {
      r[0][i] = num.get(i).procNs() / den.get(i).procNs();
      r[1][i] = num.get(i).wallNs() / den.get(i).wallNs();
      r[2][i] = num.get(i).cpuNs() / den.get(i).cpuNs();
    }
    String verdict = target;
    if (!Double.isNaN(bound)) {
      double m = median(r[0]);
      boolean ok = atLeast ? m >= bound : m <= bound;
      verdict += ok ? " — **met** (per core)" : " — **missed** (per core)";
    }
    return String.format(
        Locale.ROOT,
        "| %s | %s | %s | %s | %s |%n",
        label,
        ratio(r[0]),
        ratio(r[1]),
        ratio(r[2]),
        verdict);
  }

  private static String ratio(double[] r) {
    return String.format(Locale.ROOT, "%.2f× [%.2f–%.2f]", median(r), min(r), max(r));
  }

  /** amount per second: median over rounds [min–max]. */
  private static String rate(long amount, double[] ns, double scale) {
    double[] v = Arrays.stream(ns).map(x -> amount / (x / 1e9) / scale).toArray();
    if (scale == 1) {
      return String.format(Locale.ROOT, "%,.0f [%,.0f–%,.0f]", median(v), min(v), max(v));
    }
    return String.format(Locale.ROOT, "%.1f [%.1f–%.1f]", median(v), min(v), max(v));
  }

  static double median(long[] v) {
    return median(Arrays.stream(v).asDoubleStream().toArray());
  }

  static double median(double[] v) {
    double[] s = v.clone();
    Arrays.sort(s);
    int n = s.length;
    return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
  }

  private static double min(double[] v) {
    return Arrays.stream(v).min().orElse(Double.NaN);
  }

  private static double max(double[] v) {
    return Arrays.stream(v).max().orElse(Double.NaN);
  }

  private static long taskEnds(Path file) throws IOException {
    try (var lines = Files.lines(file, StandardCharsets.UTF_8)) {
      return lines.filter(l -> l.startsWith("{\"Event\":\"SparkListenerTaskEnd\"")).count();
    }
  }

  private static String cpuModel() throws IOException {
    return Files.readAllLines(Path.of("/proc/cpuinfo")).stream()
        .filter(l -> l.startsWith("model name"))
        .map(l -> l.substring(l.indexOf(':') + 1).trim())
        .findFirst()
        .orElse("unknown CPU");
  }

  private static String memTotal() throws IOException {
    return Files.readAllLines(Path.of("/proc/meminfo")).stream()
        .filter(l -> l.startsWith("MemTotal"))
        .map(
            l ->
                String.format(
                    Locale.ROOT,
                    "%.0f GiB RAM",
                    Long.parseLong(l.replaceAll("\\D", "")) / 1024.0 / 1024.0))
        .findFirst()
        .orElse("");
  }
}
