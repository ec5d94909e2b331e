package io.sluice.tuner.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.tuner.testing.Http;
import io.sluice.tuner.testing.ServiceOnH2;
import io.sluice.tuner.testing.TestCredentials;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * schemathesis (PyPI; installed into .sluice/venv-schemathesis by
 * deploy/bin/install-schemathesis.sh, which this test runs itself and never skips) fuzzes every
 * operation of the service's own OpenAPI description, once as an admin and once anonymously, with a
 * bounded budget: no answer may be a 5xx or break the described response schema.
 */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "server.address=127.0.0.1",
      "sluice.tuner.submission-timeout=10s",
      "sluice.test.context=ApiFuzzITCase"
    }) // its own context: the store is in this class's temp dir
class ApiFuzzITCase extends ServiceOnH2 {
  /** Generated cases per operation and run (the budget). */
  static final int MAX_EXAMPLES = 15;

  @Test
  void noServerErrorAndNoSchemaViolationAuthenticatedOrNot() throws Exception {
    Path st = install();
    // springdoc builds the description on its first request, which can outlast schemathesis' 10 s
    // read timeout on
    // a cold, loaded JVM: wait for that first answer here (30 s request timeout) before
    // schemathesis asks for it
    assertThat(new Http(port).get("/v3/api-docs").status())
        .as("the OpenAPI description is served")
        .isEqualTo(200);
    Run admin = fuzz(st, TestCredentials.ADMIN, "admin");
    assertThat(admin.exit())
        .as("schemathesis as admin (exit %d):\n%s", admin.exit(), admin.output())
        .isZero();
    Run anonymous = fuzz(st, null, "anonymous");
    assertThat(anonymous.exit())
        .as("schemathesis anonymous (exit %d):\n%s", anonymous.exit(), anonymous.output())
        .isZero();
  }

  record Run(int exit, String output) {}

  private Run fuzz(Path st, String authorization, String name) throws Exception {
    Path report = dir.resolve("schemathesis-" + name + ".log");
    List<String> cmd =
        new ArrayList<>(
            List.of(
                st.toString(),
                "run",
                "http://127.0.0.1:" + port + "/v3/api-docs",
                "--checks",
                "not_a_server_error,response_schema_conformance",
                "--max-examples",
                String.valueOf(MAX_EXAMPLES),
                "--phases",
                "examples,fuzzing",
                "--seed",
                "20261125",
                "--request-timeout",
                "20",
                "--no-color"));
    if (authorization != null) {
      cmd.addAll(List.of("--header", "Authorization: " + authorization));
    }
    Process p =
        new ProcessBuilder(cmd)
            .directory(dir.toFile())
            .redirectErrorStream(true)
            .redirectOutput(report.toFile())
            .start();
    if (!p.waitFor(8, TimeUnit.MINUTES)) {
      p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      throw new AssertionError("schemathesis did not finish within 8 minutes: " + tail(report));
    }
    return new Run(p.exitValue(), tail(report));
  }

  private static String tail(Path f) throws IOException {
    String s = Files.readString(f, StandardCharsets.UTF_8);
    return s.length() <= 12_000 ? s : s.substring(s.length() - 12_000);
  }

  static Path install() throws Exception {
    Path root = Path.of("").toAbsolutePath();
    while (root != null && !Files.exists(root.resolve("deploy/bin/install-schemathesis.sh"))) {
      root = root.getParent();
    }
    assertThat(root)
        .as(
            "the repository root (deploy/bin/install-schemathesis.sh) above %s",
            Path.of("").toAbsolutePath())
        .isNotNull();
    Process p =
        new ProcessBuilder(root.resolve("deploy/bin/install-schemathesis.sh").toString())
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    assertThat(p.waitFor(15, TimeUnit.MINUTES)).as("install-schemathesis.sh finished").isTrue();
    assertThat(p.exitValue()).as("install-schemathesis.sh exit").isZero();
    Path st = Path.of(out.lines().reduce((a, b) -> b).orElse(""));
    assertThat(st).as("the schemathesis command printed by install-schemathesis.sh").isExecutable();
    return st;
  }
}
