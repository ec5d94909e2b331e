package io.sluice.submit;

import io.sluice.contracts.api.LaunchFailureReport;
import io.sluice.contracts.api.RunReportRequest;
import io.sluice.contracts.api.SubmissionRequest;
import io.sluice.model.JobKey;
import io.sluice.submit.client.Advice;
import io.sluice.submit.client.Outcome;
import io.sluice.submit.client.TunerClient;
import io.sluice.submit.client.TunerSettings;
import io.sluice.submit.outcome.LaunchFailures;
import io.sluice.submit.outcome.OutcomeReports;
import io.sluice.submit.outcome.OutcomeSender;
import io.sluice.submit.platform.PlatformAllowList;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * {@code sluice-submit}: takes spark-submit's arguments, asks tuner-service for an overlay, and
 * runs spark-submit with the overlay, markers and listener added — or, if anything at all goes
 * wrong, with the user's arguments unchanged.
 *
 * <pre>
 *   SluiceSubmit [--sluice-url URL] SPARK_SUBMIT_ARGS...          run spark-submit as a child, exit with its code
 *   SluiceSubmit --sluice-emit-argv FILE [--sluice-url URL] ARGS...  write the final argv (NUL-separated) to FILE
 *   SluiceSubmit --sluice-launch-failed EXIT LAUNCHED_ARGS...       report that the launch exited with EXIT
 * </pre>
 *
 * The second form is what {@code deploy/bin/sluice-submit} uses so that the shell can {@code exec}
 * spark-submit (no JVM stays behind). spark-submit is {@code $SLUICE_SPARK_SUBMIT}, else {@code
 * $SPARK_HOME/bin/spark-submit}, else {@code spark-submit} on the PATH.
 *
 * <p>A launch Sluice routed to a push tier without YARN attempts (any master but {@code yarn}) is
 * watched: when spark-submit exits, its final status is reported to tuner-service ({@code POST
 * /api/v1/tiers/outcomes}), and when it failed it is re-run once with the user's original conf on
 * the ESS ({@link Rerun}), and the re-run's status is reported and returned. Its exit code only
 * says how the application ended in client mode (or cluster mode with {@code
 * spark.standalone.submit.waitAppCompletion=true}).
 *
 * <p>A launch Sluice added an overlay to that exits non-zero (not by a signal) is reported as a
 * launch failure ({@link LaunchFailures}): tuner-service rolls the overlay back unless the
 * application's run reaches the history store. The shell launcher runs such a launch as a child and
 * reports with {@code --sluice-launch-failed}.
 */
public final class SluiceSubmit {
  /** Spark's default redaction pattern: such confs are not sent to the service. */
  private static final Pattern SECRET = Pattern.compile("(?i)secret|password|token|access[.]key");

  private SluiceSubmit() {}

  public static void main(String[] argv) {
    List<String> args = new ArrayList<>(Arrays.asList(argv));
    Path emitTo = null;
    Path launchedFile = null;
    if (!args.isEmpty() && args.get(0).equals("--sluice-emit-argv") && args.size() >= 2) {
      emitTo = Path.of(args.get(1));
      args = new ArrayList<>(args.subList(2, args.size()));
    } else if (!args.isEmpty() && args.get(0).equals("--sluice-launched") && args.size() >= 2) {
      launchedFile = Path.of(args.get(1));
      args = new ArrayList<>(args.subList(2, args.size()));
    }
    Map<String, String> env = new HashMap<>(System.getenv());
    if (!args.isEmpty() && args.get(0).equals("--sluice-launch-failed") && args.size() >= 2) {
      int exit;
      try {
        exit = Integer.parseInt(args.get(1));
      } catch (NumberFormatException e) {
        System.err.println(
            "sluice: --sluice-launch-failed needs an exit status, got " + args.get(1));
        System.exit(2);
        return;
      }
      reportLaunchFailure(args.subList(2, args.size()), exit, "", env, System.err);
      System.exit(0);
    }
    List<String> userArgs = stripSluiceOptions(args, env);
    Launch launch;
    if (launchedFile != null) {
      launch = launched(userArgs, readArgv(launchedFile), env, System.err);
    } else {
      launch = planLaunch(userArgs, env, System.err, TunerClient::fromSettings);
    }
    if (emitTo != null) {
      try {
        StringBuilder sb = new StringBuilder();
        for (String a : launch.args()) {
          sb.append(a).append('\0');
        }
        Files.writeString(emitTo, sb, StandardCharsets.UTF_8);
        Path supervise = Path.of(emitTo + SUPERVISE_SUFFIX);
        if (launch.rerun().isPresent()) {
          Files.writeString(supervise, "", StandardCharsets.UTF_8);
        } else {
          Files.deleteIfExists(supervise);
        }
        System.exit(0);
      } catch (IOException e) {
        System.err.println("sluice: cannot write " + emitTo + ": " + e);
        System.exit(3);
      }
    }
    String submit = sparkSubmit(env);
    long t0 = System.nanoTime();
    int exit = supervise(launch, a -> run(submit, a), senderFor(launch, env), System.err);
    if (exit != 0 && launch.rerun().isEmpty()) {
      reportLaunchFailure(
          launch.args(),
          exit,
          "after " + (System.nanoTime() - t0) / 1_000_000_000L + " s",
          env,
          System.err);
    }
    System.exit(exit);
  }

  /**
   * Reports a launch of {@code launchedArgs} that exited with {@code exit}, when Sluice had added
   * an overlay to it. Never throws; writes at most one line to {@code err}.
   */
  static void reportLaunchFailure(
      List<String> launchedArgs,
      int exit,
      String detail,
      Map<String, String> env,
      PrintStream err) {
    try {
      Map<String, String> conf = SparkSubmitArgs.parse(launchedArgs).effectiveConf(env);
      Optional<LaunchFailureReport> report = LaunchFailures.report(conf, exit, detail);
      if (report.isEmpty()) {
        return;
      }
      TunerSettings s = TunerSettings.resolve(conf, env);
      if (s.url() == null || !s.enabled()) {
        err.println("sluice: launch failure not reported: no tuner URL");
        return;
      }
      err.println(
          "sluice: "
              + new OutcomeSender(
                      s.url(), LaunchFailures.PATH, "launch failure", OutcomeSender.TIMEOUT)
                  .send(report.get()));
    } catch (SparkSubmitArgs.ParseException | RuntimeException e) {
      err.println("sluice: launch failure not reported (" + e.getMessage() + ")");
    }
  }

  /**
   * With {@code --sluice-emit-argv FILE}: this file ({@code FILE.supervise}) exists when the launch
   * must be watched (a push-tier launch without YARN attempts): the shell launcher then runs {@code
   * --sluice-launched FILE ARGS...} instead of exec'ing spark-submit.
   */
  public static final String SUPERVISE_SUFFIX = ".supervise";

  /** What to run: the arguments, and the re-run when the launch is one to watch. */
  public record Launch(List<String> args, Optional<Rerun> rerun) {
    static Launch unchanged(List<String> args) {
      return new Launch(args, Optional.empty());
    }
  }

  /** Runs spark-submit with the given arguments, returns its exit code. */
  public interface Runner {
    int run(List<String> args);
  }

  /**
   * Runs the launch; for a re-runnable one (push tier, no YARN attempts) reports its final status
   * to tuner-service and, when it failed (not stopped: {@link Rerun#rerunsAfter}), re-runs it once
   * with the original conf, reports that too and returns the re-run's exit code. Reports never fail
   * or delay the job beyond their deadline.
   */
  public static int supervise(
      Launch launch, Runner runner, Function<RunReportRequest, String> sender, PrintStream err) {
    int exit = runner.run(launch.args());
    if (launch.rerun().isEmpty()) {
      return exit;
    }
    Rerun rerun = launch.rerun().get();
    report(OutcomeReports.launcher(rerun.launched(), 1, exit, null), sender, err);
    if (!Rerun.rerunsAfter(exit)) {
      return exit;
    }
    err.println(
        "sluice: spark-submit exited with "
            + exit
            + " on push tier "
            + rerun.tier().wireName()
            + "; re-running once with your original conf on the ESS");
    int again = runner.run(rerun.args(exit));
    report(OutcomeReports.launcher(rerun.launched(), 2, again, rerun.detail(exit)), sender, err);
    return again;
  }

  private static void report(
      Optional<RunReportRequest> report,
      Function<RunReportRequest, String> sender,
      PrintStream err) {
    report.ifPresent(
        r -> {
          try {
            err.println("sluice: " + sender.apply(r));
          } catch (RuntimeException e) {
            err.println("sluice: tier outcome not reported (" + e + ")");
          }
        });
  }

  /**
   * The sender of run reports: to the URL the launched conf (or the environment) names; a no-op
   * without one.
   */
  static Function<RunReportRequest, String> senderFor(Launch launch, Map<String, String> env) {
    try {
      Map<String, String> conf = launch.rerun().map(Rerun::launched).orElse(Map.of());
      TunerSettings s = TunerSettings.resolve(conf, env);
      if (s.url() == null || !s.enabled()) {
        return r -> "tier outcome not reported: no tuner URL";
      }
      return new OutcomeSender(s.url(), OutcomeSender.TIMEOUT)::send;
    } catch (RuntimeException e) {
      return r -> "tier outcome not reported (" + e.getMessage() + ")";
    }
  }

  /**
   * The launch of an argv planned earlier (the shell launcher's second step): no request, the
   * re-run recomputed.
   */
  static Launch launched(
      List<String> userArgs, List<String> launchedArgs, Map<String, String> env, PrintStream err) {
    try {
      SparkSubmitArgs user = SparkSubmitArgs.parse(userArgs);
      Map<String, String> userConf = user.effectiveConf(env);
      SparkSubmitArgs launched = SparkSubmitArgs.parse(launchedArgs);
      String listener = TunerSettings.resolve(userConf, env).listenerJar();
      return new Launch(
          launchedArgs, Rerun.of(user, userConf, launched.effectiveConf(env), listener));
    } catch (SparkSubmitArgs.ParseException | RuntimeException e) {
      err.println("sluice: " + e.getMessage() + "; running the planned command without a re-run");
      return Launch.unchanged(launchedArgs);
    }
  }

  static List<String> readArgv(Path file) {
    try {
      String s = Files.readString(file, StandardCharsets.UTF_8);
      Files.deleteIfExists(file);
      Files.deleteIfExists(Path.of(file + SUPERVISE_SUFFIX));
      if (s.isEmpty()) {
        return List.of();
      }
      return new ArrayList<>(Arrays.asList(s.substring(0, s.length() - 1).split("\0", -1)));
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /**
   * Removes leading {@code --sluice-url URL} / {@code --sluice-url=URL} (recorded as
   * SLUICE_SUBMIT_URL in env).
   */
  static List<String> stripSluiceOptions(List<String> args, Map<String, String> env) {
    List<String> out = new ArrayList<>(args);
    while (!out.isEmpty()) {
      String a = out.get(0);
      if (a.equals("--sluice-url") && out.size() >= 2) {
        env.put("SLUICE_SUBMIT_URL", out.get(1));
        out.subList(0, 2).clear();
      } else if (a.startsWith("--sluice-url=")) {
        env.put("SLUICE_SUBMIT_URL", a.substring("--sluice-url=".length()));
        out.remove(0);
      } else {
        break;
      }
    }
    return out;
  }

  /**
   * The arguments to run spark-submit with: rewritten when tuner-service gave usable advice, else
   * exactly {@code args}. Never throws; writes at most one line to {@code err}.
   */
  public static List<String> plan(
      List<String> args,
      Map<String, String> env,
      PrintStream err,
      Function<TunerSettings, TunerClient> clients) {
    return planLaunch(args, env, err, clients).args();
  }

  /**
   * {@link #plan}, and the re-run when the planned launch is a push-tier launch without YARN
   * attempts.
   */
  public static Launch planLaunch(
      List<String> args,
      Map<String, String> env,
      PrintStream err,
      Function<TunerSettings, TunerClient> clients) {
    try {
      SparkSubmitArgs parsed;
      try {
        parsed = SparkSubmitArgs.parse(args);
      } catch (SparkSubmitArgs.ParseException e) {
        err.println("sluice: " + e.getMessage() + "; running your command unchanged");
        return Launch.unchanged(args);
      }
      if (!parsed.isSubmit()) {
        return Launch.unchanged(args);
      }
      Map<String, String> conf = parsed.effectiveConf(env);
      if (conf.containsKey(Injection.SUBMISSION_ID)) {
        err.println(
            "sluice: "
                + Injection.SUBMISSION_ID
                + " is already set; running your command unchanged");
        return Launch.unchanged(args);
      }
      TunerSettings settings = TunerSettings.resolve(conf, env);
      if (!settings.enabled()) {
        return Launch.unchanged(args);
      }
      if (settings.url() == null) {
        err.println(
            "sluice: no tuner URL (SLUICE_TUNER_URL, --sluice-url or "
                + TunerSettings.URL
                + "); running your command unchanged");
        return Launch.unchanged(args);
      }
      SubmissionRequest request = request(parsed, conf, settings, env);
      Outcome outcome = clients.apply(settings).ask(request);
      if (outcome.advice().isEmpty()) {
        err.println(
            "sluice: tuner-service "
                + settings.url()
                + ": "
                + outcome.note()
                + " after "
                + outcome.elapsedMs()
                + " ms; running your command unchanged");
        return Launch.unchanged(args);
      }
      Advice advice = outcome.advice().get();
      Injection injection =
          Injection.compute(
              conf,
              advice,
              settings.overrideUserConf(),
              new Injection.Listener(
                  settings.listenerJar(), settings.kafkaBootstrap(), settings.cluster()),
              null,
              PlatformAllowList.configuredOrNothing(
                  env, System.getProperty(PlatformAllowList.PROPERTY_FILE), err));
      List<String> rewritten = parsed.rewrite(injection.confs(), injection.jars(), conf);
      err.println(injection.summary(advice) + " (" + outcome.elapsedMs() + " ms)");
      Optional<Rerun> rerun = Optional.empty();
      try {
        String listener =
            settings.listenerJar() != null && injection.jars().contains(settings.listenerJar())
                ? settings.listenerJar()
                : null;
        rerun =
            Rerun.of(parsed, conf, SparkSubmitArgs.parse(rewritten).effectiveConf(env), listener);
      } catch (SparkSubmitArgs.ParseException | RuntimeException e) {
        err.println("sluice: no re-run possible (" + e.getMessage() + ")");
      }
      return new Launch(rewritten, rerun);
    } catch (Throwable t) {
      if (t instanceof VirtualMachineError vme && !(t instanceof OutOfMemoryError)) {
        throw vme;
      }
      err.println("sluice: internal error (" + t + "); running your command unchanged");
      return Launch.unchanged(args);
    }
  }

  static SubmissionRequest request(
      SparkSubmitArgs parsed,
      Map<String, String> conf,
      TunerSettings settings,
      Map<String, String> env) {
    String user = parsed.last("--proxy-user");
    if (user == null) {
      user = env.getOrDefault("HADOOP_USER_NAME", System.getProperty("user.name"));
    }
    Map<String, String> sent = new LinkedHashMap<>();
    conf.forEach(
        (k, v) -> {
          if (!SECRET.matcher(k).find()) {
            sent.put(k, v);
          }
        });
    return new SubmissionRequest(
        settings.cluster(),
        conf.get("spark.yarn.queue"),
        user,
        parsed.appName(conf),
        conf.get(JobKey.EXPLICIT_KEY),
        sent);
  }

  static String sparkSubmit(Map<String, String> env) {
    String explicit = env.get("SLUICE_SPARK_SUBMIT");
    if (explicit != null && !explicit.isBlank()) {
      return explicit;
    }
    String home = env.get("SPARK_HOME");
    return home == null || home.isBlank()
        ? "spark-submit"
        : Path.of(home, "bin", "spark-submit").toString();
  }

  /**
   * Runs spark-submit with inherited stdio; returns its exit code (the child is killed if this JVM
   * is stopped).
   */
  static int run(String sparkSubmit, List<String> args) {
    List<String> cmd = new ArrayList<>();
    cmd.add(sparkSubmit);
    cmd.addAll(args);
    try {
      Process p = new ProcessBuilder(cmd).inheritIO().start();
      Thread killer =
          new Thread(() -> p.descendants().forEach(ProcessHandle::destroy), "sluice-submit-stop");
      Runtime.getRuntime()
          .addShutdownHook(
              new Thread(
                  () -> {
                    if (p.isAlive()) {
                      killer.run();
                      p.destroy();
                    }
                  }));
      return p.waitFor();
    } catch (IOException e) {
      System.err.println("sluice: cannot run " + sparkSubmit + ": " + e.getMessage());
      return 127;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return 130;
    }
  }
}
