package io.sluice.testing.yarn;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
import org.apache.hadoop.yarn.api.records.FinalApplicationStatus;
import org.apache.hadoop.yarn.api.records.YarnApplicationState;

/**
 * Runs a real Spark application on a {@link MiniYarn} cluster in cluster mode ({@code spark-submit
 * --master yarn --deploy-mode cluster}) with the pyspark distribution: the driver runs in the
 * ApplicationMaster container, executors in containers of the NodeManager, all with the
 * distribution's jars in place ({@code spark.yarn.jars=local:...}, nothing uploaded). Waits for the
 * application to end and returns its final YARN state and the event log it wrote.
 */
public final class SparkOnYarn {
  private static final Pattern APP_ID = Pattern.compile("(application_\\d+_\\d+)");

  private final MiniYarn yarn;
  private final SparkDist spark;

  public SparkOnYarn(MiniYarn yarn, SparkDist spark) {
    this.yarn = yarn;
    this.spark = spark;
  }

  /**
   * The configuration every run gets (callers' {@link Submission#conf} entries override it): small
   * containers, two single-core executors, the NM's shuffle service and port, event log into the
   * work dir.
   */
  public Map<String, String> baseConf(Path eventLogDir) {
    Map<String, String> c = new LinkedHashMap<>();
    c.put("spark.yarn.jars", spark.yarnJarsLocal());
    c.put("spark.yarn.stagingDir", "file://" + yarn.workDir().resolve("staging"));
    c.put("spark.yarn.maxAppAttempts", "1");
    c.put("spark.yarn.submit.waitAppCompletion", "true");
    c.put("spark.yarn.report.interval", "500ms");
    // 640 MB containers (512 MB heap, Spark's minimum for an executor, + a small overhead): two
    // applications fit in
    // MiniYARNCluster's 4 GB NodeManager at once
    c.put("spark.driver.memory", "512m");
    c.put("spark.driver.memoryOverhead", "128m");
    c.put("spark.executor.memory", "512m");
    c.put("spark.executor.memoryOverhead", "128m");
    c.put("spark.executor.instances", "2");
    c.put("spark.executor.cores", "1");
    c.put("spark.ui.enabled", "false");
    c.put("spark.eventLog.enabled", "true");
    c.put("spark.eventLog.dir", "file://" + eventLogDir);
    c.put("spark.shuffle.service.enabled", "true");
    c.put("spark.shuffle.service.port", Integer.toString(yarn.shufflePort()));
    // one host: without this, executors read each other's shuffle files from disk and the ESS
    // serves nothing
    c.put("spark.shuffle.readHostLocalDisk", "false");
    c.put("spark.dynamicAllocation.enabled", "false");
    return c;
  }

  /**
   * Submits and waits (at most {@code timeout}); the process is killed if it does not end in time.
   */
  public Run run(Submission s, Duration timeout) throws IOException, InterruptedException {
    Path runDir = Files.createDirectories(yarn.workDir().resolve("runs").resolve(s.name));
    Path eventLogDir = Files.createDirectories(runDir.resolve("eventlog"));
    Map<String, String> conf = baseConf(eventLogDir);
    conf.putAll(s.conf);
    conf.putIfAbsent("spark.app.name", s.name);

    List<String> cmd = new ArrayList<>();
    cmd.add(spark.sparkSubmit().toString());
    cmd.addAll(List.of("--master", "yarn", "--deploy-mode", "cluster"));
    if (s.queue != null) {
      cmd.addAll(List.of("--queue", s.queue));
    }
    cmd.addAll(List.of("--class", s.mainClass));
    conf.forEach((k, v) -> cmd.addAll(List.of("--conf", k + "=" + v)));
    cmd.add(s.jar.toString());
    cmd.addAll(s.args);

    Path out = runDir.resolve("spark-submit.out");
    ProcessBuilder pb =
        new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile());
    pb.environment().put("HADOOP_CONF_DIR", yarn.confDir().toString());
    pb.environment().put("YARN_CONF_DIR", yarn.confDir().toString());
    pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
    pb.environment().put("SPARK_HOME", spark.home().toString());
    pb.environment().remove("SPARK_CONF_DIR");
    long t0 = System.nanoTime();
    Process p = pb.start();
    int exit;
    try {
      if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        exit = -1;
      } else {
        exit = p.exitValue();
      }
    } finally {
      if (p.isAlive()) {
        p.destroy();
        if (!p.waitFor(10, TimeUnit.SECONDS)) {
          p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
      }
    }
    long elapsedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
    String output = Files.readString(out, StandardCharsets.UTF_8);
    Matcher m = APP_ID.matcher(output);
    String appId = m.find() ? m.group(1) : null;
    YarnApplicationState state = null;
    FinalApplicationStatus status = null;
    String diagnostics = null;
    if (appId != null) {
      try {
        ApplicationReport r = yarn.report(appId);
        state = r.getYarnApplicationState();
        status = r.getFinalApplicationStatus();
        diagnostics = r.getDiagnostics();
      } catch (Exception e) {
        diagnostics = "no report: " + e;
      }
    }
    return new Run(
        s.name,
        appId,
        exit,
        state,
        status,
        diagnostics,
        eventLog(eventLogDir, appId),
        output,
        elapsedMs);
  }

  private static Path eventLog(Path dir, String appId) throws IOException {
    if (appId == null) {
      return null;
    }
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(f -> f.getFileName().toString().startsWith(appId))
          .filter(f -> !f.getFileName().toString().endsWith(".inprogress"))
          .findFirst()
          .orElse(null);
    }
  }

  /** What to run. */
  public static final class Submission {
    final String name;
    final Path jar;
    final String mainClass;
    final List<String> args = new ArrayList<>();
    final Map<String, String> conf = new LinkedHashMap<>();
    String queue;

    public Submission(String name, Path jar, String mainClass) {
      this.name = name;
      this.jar = jar;
      this.mainClass = mainClass;
    }

    public static Submission of(String name, JobJar job, String... args) {
      return new Submission(name, job.jar(), job.mainClass()).args(args);
    }

    /** Appends application arguments (after the jar or script on spark-submit's command line). */
    public Submission args(String... args) {
      this.args.addAll(List.of(args));
      return this;
    }

    public Submission conf(String key, String value) {
      conf.put(key, value);
      return this;
    }

    public Submission queue(String queue) {
      this.queue = queue;
      return this;
    }
  }

  /**
   * One finished run.
   *
   * @param exit spark-submit's exit code (-1: killed at the timeout)
   * @param state YARN's final application state (null when no application was created)
   * @param eventLog the event log Spark wrote (null if none)
   * @param output spark-submit's stdout+stderr
   */
  public record Run(
      String name,
      String appId,
      int exit,
      YarnApplicationState state,
      FinalApplicationStatus finalStatus,
      String diagnostics,
      Path eventLog,
      String output,
      long elapsedMs) {
    public boolean succeeded() {
      return exit == 0
          && state == YarnApplicationState.FINISHED
          && finalStatus == FinalApplicationStatus.SUCCEEDED;
    }

    public List<String> eventLogLines() throws IOException {
      return eventLog == null ? List.of() : Files.readAllLines(eventLog, StandardCharsets.UTF_8);
    }

    /** The last lines of spark-submit's output, for assertion messages. */
    public String tail() {
      String[] lines = output.split("\n");
      return String.join(
          "\n", List.of(lines).subList(Math.max(0, lines.length - 40), lines.length));
    }

    @Override
    public String toString() {
      return name
          + " "
          + appId
          + " exit="
          + exit
          + " state="
          + state
          + " final="
          + finalStatus
          + " elapsedMs="
          + elapsedMs
          + (diagnostics == null || diagnostics.isBlank() ? "" : " diagnostics=" + diagnostics);
    }
  }
}
