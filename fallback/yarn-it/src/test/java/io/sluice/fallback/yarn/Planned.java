package io.sluice.fallback.yarn;

import io.sluice.submit.SluiceSubmit;
import io.sluice.submit.client.TunerClient;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What sluice-submit makes of one spark-submit command line: {@link SluiceSubmit#plan} (the code
 * {@code deploy/bin/sluice-submit} runs) asks the real tuner-service and rewrites the arguments;
 * {@link #conf} is every {@code --conf} of the result (the user's and Sluice's), {@link #note} what
 * sluice-submit printed.
 */
record Planned(List<String> args, Map<String, String> conf, String note) {

  /**
   * @param userConf the user's {@code --conf}s
   * @param stateDir where sluice-submit keeps its circuit breaker's state
   */
  static Planned of(
      String tunerUrl,
      String cluster,
      String queue,
      String mainClass,
      Path jar,
      List<String> jobArgs,
      Map<String, String> userConf,
      Path stateDir) {
    List<String> cmd =
        new ArrayList<>(
            List.of(
                "--master",
                "yarn",
                "--deploy-mode",
                "cluster",
                "--queue",
                queue,
                "--class",
                mainClass));
    userConf.forEach((k, v) -> cmd.addAll(List.of("--conf", k + "=" + v)));
    cmd.add(jar.toString());
    cmd.addAll(jobArgs);
    Map<String, String> env =
        Map.of(
            "SLUICE_SUBMIT_URL",
            tunerUrl,
            "SLUICE_CLUSTER",
            cluster,
            "SLUICE_TUNER_TIMEOUT_MS",
            "20000",
            "SLUICE_STATE_DIR",
            stateDir.toString());
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    List<String> out;
    try (PrintStream ps = new PrintStream(err, true, StandardCharsets.UTF_8)) {
      out = SluiceSubmit.plan(cmd, env, ps, TunerClient::fromSettings);
    }
    Map<String, String> conf = new LinkedHashMap<>();
    for (int i = 0; i + 1 < out.size(); i++) {
      if (out.get(i).equals("--conf")) {
        String kv = out.get(++i);
        int eq = kv.indexOf('=');
        conf.put(kv.substring(0, eq), kv.substring(eq + 1));
      }
    }
    return new Planned(out, conf, err.toString(StandardCharsets.UTF_8).trim());
  }
}
