package io.sluice.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The web UI's part of the end-to-end run, on the stack {@link TuningLoopITCase} started: one more
 * real job whose application name and a conf value carry HTML/JS (stored like any run), then the
 * browser suite ({@code npm run e2e} in {@code ui/}: playwright-core driving Debian's Chromium)
 * against the stack's tuner-service, signed in with the users {@code sluice-stack up} generated.
 */
final class WebUiRun {
  /** Markup that would set {@code window.__sluiceXss} if the UI ever let it run. */
  static final String HOSTILE_NAME = "sluice-e2e-xss <img src=x onerror=window.__sluiceXss=1>";

  static final String HOSTILE_CONF =
      "spark.e2e.note=<script>window.__sluiceXss=2</script><b>bold</b>";
  static final ObjectMapper JSON = new ObjectMapper();

  private final Path root;
  private final Path state;
  private final Map<String, String> stackEnv;
  private final String tunerUrl;
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  WebUiRun(Path root, Path state, Map<String, String> stackEnv, String tunerUrl) {
    this.root = root;
    this.state = state;
    this.stackEnv = stackEnv;
    this.tunerUrl = tunerUrl;
  }

  private Optional<String> credential(String name) throws Exception {
    Path p = state.resolve("credentials").resolve(name);
    return Files.exists(p) ? Optional.of(Files.readString(p).strip()) : Optional.empty();
  }

  /**
   * Submits the hostile job through sluice-submit and returns its job key once the store lists it.
   */
  String submitHostileJob() throws Exception {
    Map<String, String> e = new HashMap<>(stackEnv);
    e.put("SLUICE_SUBMIT_VIA", "sluice");
    e.put("SLUICE_TUNER_URL", tunerUrl);
    e.put("SLUICE_TUNER_TIMEOUT_MS", "5000");
    e.put(
        "SLUICE_LISTENER_JAR",
        root.resolve("event-ingest/listener/target/sluice-spark-listener-0.1.0-SNAPSHOT.jar")
            .toString());
    e.put("SLUICE_KAFKA_BOOTSTRAP", "127.0.0.1:" + stackEnv.get("SLUICE_KAFKA_PORT"));
    e.put("SLUICE_CLUSTER", "local");
    e.put("SLUICE_STATE_DIR", state.resolve("submit-state").toString());
    Path token = state.resolve("credentials/reporter-token");
    if (Files.exists(token)) {
      e.put("SLUICE_TUNER_TOKEN_FILE", token.toString());
    }
    Path log = state.resolve("run-xss.log");
    int rc =
        TuningLoopITCase.run(
            log,
            Duration.ofMinutes(10),
            e,
            root.resolve("deploy/jobs/submit.sh").toString(),
            // spark.app.name too: sluice-submit derives the job key from it (the script's
            // --app-name names the context)
            "--state-dir",
            state.resolve("spark").toString(),
            "--conf",
            HOSTILE_CONF,
            "--conf",
            "spark.app.name=" + HOSTILE_NAME,
            "tiny_blocks",
            "--app-name",
            HOSTILE_NAME,
            "--rows",
            "20000",
            "--maps",
            "10");
    assertThat(rc).as("hostile run (log %s)", log).isZero();
    long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
    while (true) {
      for (JsonNode j :
          get("/api/v1/ui/jobs?q=" + URLEncoder.encode("sluice-e2e-xss", StandardCharsets.UTF_8))
              .path("items")) {
        if (j.path("jobKey").asText().contains("onerror=")) {
          return j.path("jobKey").asText();
        }
      }
      assertThat(System.nanoTime())
          .as("the hostile run in the store (logs in %s)", state)
          .isLessThan(deadline);
      Thread.sleep(1000);
    }
  }

  private JsonNode get(String path) throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create(tunerUrl + path)).timeout(Duration.ofSeconds(10));
    Optional<String> token = credential("admin-token");
    if (token.isPresent()) {
      b.header("Authorization", "Bearer " + token.get());
    }
    HttpResponse<String> r = http.send(b.GET().build(), HttpResponse.BodyHandlers.ofString());
    return r.statusCode() == 200 ? JSON.readTree(r.body()) : JSON.createObjectNode();
  }

  /**
   * Runs the browser suite; returns its exit code (its output is in {@code ui-e2e.log} of the state
   * dir).
   */
  int browserSuite(String jobKey, String hostileJobKey, Path gatePublished) throws Exception {
    Map<String, String> e = new HashMap<>();
    e.put("SLUICE_UI_URL", tunerUrl);
    e.put("SLUICE_UI_JOB_KEY", jobKey);
    e.put("SLUICE_UI_XSS_JOB_KEY", hostileJobKey);
    e.put("SLUICE_UI_GATE_PUBLISHED", gatePublished.toString());
    e.put("SLUICE_UI_ADMIN_USER", "admin");
    e.put("SLUICE_UI_ADMIN_PASSWORD", credential("admin-password").orElse(""));
    e.put("SLUICE_UI_VIEWER_USER", "viewer");
    e.put("SLUICE_UI_VIEWER_PASSWORD", credential("viewer-password").orElse(""));
    e.put("SLUICE_UI_SCREENSHOTS", root.resolve("ui/target/screenshots").toString());
    Path log = state.resolve("ui-e2e.log");
    ProcessBuilder pb =
        new ProcessBuilder(List.of("npm", "run", "e2e"))
            .directory(root.resolve("ui").toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile());
    pb.environment().putAll(e);
    Process p = pb.start();
    if (!p.waitFor(5, java.util.concurrent.TimeUnit.MINUTES)) {
      p.descendants().forEach(ProcessHandle::destroyForcibly);
      p.destroyForcibly();
      throw new AssertionError("the browser suite timed out (log " + log + ")");
    }
    System.out.println(Files.readString(log));
    return p.exitValue();
  }
}
