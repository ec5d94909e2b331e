package io.sluice.submit;

import io.sluice.model.JobKey;
import io.sluice.submit.client.Advice;
import io.sluice.submit.client.Outcome;
import io.sluice.submit.client.SubmissionRequest;
import io.sluice.submit.client.TunerClient;
import io.sluice.submit.client.TunerSettings;
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
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * {@code sluice-submit}: takes spark-submit's arguments, asks tuner-service for an overlay, and runs spark-submit with
 * the overlay, markers and listener added — or, if anything at all goes wrong, with the user's arguments unchanged.
 *
 * <pre>
 *   SluiceSubmit [--sluice-url URL] SPARK_SUBMIT_ARGS...          run spark-submit as a child, exit with its code
 *   SluiceSubmit --sluice-emit-argv FILE [--sluice-url URL] ARGS...  write the final argv (NUL-separated) to FILE
 * </pre>
 *
 * The second form is what {@code deploy/bin/sluice-submit} uses so that the shell can {@code exec} spark-submit
 * (no JVM stays behind). spark-submit is {@code $SLUICE_SPARK_SUBMIT}, else {@code $SPARK_HOME/bin/spark-submit},
 * else {@code spark-submit} on the PATH.
 */
public final class SluiceSubmit {
  /** Spark's default redaction pattern: such confs are not sent to the service. */
  private static final Pattern SECRET = Pattern.compile("(?i)secret|password|token|access[.]key");

  private SluiceSubmit() {}

  public static void main(String[] argv) {
    List<String> args = new ArrayList<>(Arrays.asList(argv));
    Path emitTo = null;
    if (!args.isEmpty() && args.get(0).equals("--sluice-emit-argv") && args.size() >= 2) {
      emitTo = Path.of(args.get(1));
      args = new ArrayList<>(args.subList(2, args.size()));
    }
    Map<String, String> env = new HashMap<>(System.getenv());
    List<String> userArgs = stripSluiceOptions(args, env);
    List<String> finalArgs = plan(userArgs, env, System.err, TunerClient::fromSettings);
    if (emitTo != null) {
      try {
        StringBuilder sb = new StringBuilder();
        for (String a : finalArgs) {
          sb.append(a).append('\0');
        }
        Files.writeString(emitTo, sb, StandardCharsets.UTF_8);
        System.exit(0);
      } catch (IOException e) {
        System.err.println("sluice: cannot write " + emitTo + ": " + e);
        System.exit(3);
      }
    }
    System.exit(run(sparkSubmit(env), finalArgs));
  }

  /** Removes leading {@code --sluice-url URL} / {@code --sluice-url=URL} (recorded as SLUICE_SUBMIT_URL in env). */
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
   * The arguments to run spark-submit with: rewritten when tuner-service gave usable advice, else exactly
   * {@code args}. Never throws; writes at most one line to {@code err}.
   */
  public static List<String> plan(List<String> args, Map<String, String> env, PrintStream err,
      Function<TunerSettings, TunerClient> clients) {
    try {
      SparkSubmitArgs parsed;
      try {
        parsed = SparkSubmitArgs.parse(args);
      } catch (SparkSubmitArgs.ParseException e) {
        err.println("sluice: " + e.getMessage() + "; running your command unchanged");
        return args;
      }
      if (!parsed.isSubmit()) {
        return args;
      }
      Map<String, String> conf = parsed.effectiveConf(env);
      if (conf.containsKey(Injection.SUBMISSION_ID)) {
        err.println("sluice: " + Injection.SUBMISSION_ID + " is already set; running your command unchanged");
        return args;
      }
      TunerSettings settings = TunerSettings.resolve(conf, env);
      if (!settings.enabled()) {
        return args;
      }
      if (settings.url() == null) {
        err.println("sluice: no tuner URL (SLUICE_TUNER_URL, --sluice-url or " + TunerSettings.URL
            + "); running your command unchanged");
        return args;
      }
      SubmissionRequest request = request(parsed, conf, settings, env);
      Outcome outcome = clients.apply(settings).ask(request);
      if (outcome.advice().isEmpty()) {
        err.println("sluice: tuner-service " + settings.url() + ": " + outcome.note() + " after "
            + outcome.elapsedMs() + " ms; running your command unchanged");
        return args;
      }
      Advice advice = outcome.advice().get();
      Injection injection = Injection.compute(conf, advice, settings.overrideUserConf(),
          new Injection.Listener(settings.listenerJar(), settings.kafkaBootstrap(), settings.cluster()), null);
      List<String> rewritten = parsed.rewrite(injection.confs(), injection.jars(), conf);
      err.println(injection.summary(advice) + " (" + outcome.elapsedMs() + " ms)");
      return rewritten;
    } catch (Throwable t) {
      if (t instanceof VirtualMachineError vme && !(t instanceof OutOfMemoryError)) {
        throw vme;
      }
      err.println("sluice: internal error (" + t + "); running your command unchanged");
      return args;
    }
  }

  static SubmissionRequest request(SparkSubmitArgs parsed, Map<String, String> conf, TunerSettings settings,
      Map<String, String> env) {
    String user = parsed.last("--proxy-user");
    if (user == null) {
      user = env.getOrDefault("HADOOP_USER_NAME", System.getProperty("user.name"));
    }
    Map<String, String> sent = new LinkedHashMap<>();
    conf.forEach((k, v) -> {
      if (!SECRET.matcher(k).find()) {
        sent.put(k, v);
      }
    });
    return new SubmissionRequest(settings.cluster(), conf.get("spark.yarn.queue"), user, parsed.appName(conf),
        conf.get(JobKey.EXPLICIT_KEY), sent);
  }

  static String sparkSubmit(Map<String, String> env) {
    String explicit = env.get("SLUICE_SPARK_SUBMIT");
    if (explicit != null && !explicit.isBlank()) {
      return explicit;
    }
    String home = env.get("SPARK_HOME");
    return home == null || home.isBlank() ? "spark-submit" : Path.of(home, "bin", "spark-submit").toString();
  }

  /** Runs spark-submit with inherited stdio; returns its exit code (the child is killed if this JVM is stopped). */
  static int run(String sparkSubmit, List<String> args) {
    List<String> cmd = new ArrayList<>();
    cmd.add(sparkSubmit);
    cmd.addAll(args);
    try {
      Process p = new ProcessBuilder(cmd).inheritIO().start();
      Thread killer = new Thread(() -> p.descendants().forEach(ProcessHandle::destroy), "sluice-submit-stop");
      Runtime.getRuntime().addShutdownHook(new Thread(() -> {
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
