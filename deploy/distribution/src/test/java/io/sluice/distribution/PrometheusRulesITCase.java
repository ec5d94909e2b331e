package io.sluice.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Every alert rule file passes {@code promtool check rules} (Debian's prometheus package, installed
 * by deploy/bin/install-promtool.sh, which deploy/bin/run-tests calls), the scrape configuration
 * passes {@code promtool check config}, and every Grafana dashboard is JSON whose panels all query
 * something.
 */
class PrometheusRulesITCase {

  static final Path PROMETHEUS = Dist.repoRoot().resolve("deploy/prometheus");
  static final Path GRAFANA = Dist.repoRoot().resolve("deploy/grafana");

  static List<Path> files(Path dir, String glob) throws Exception {
    List<Path> out = new ArrayList<>();
    try (var s = Files.newDirectoryStream(dir, glob)) {
      s.forEach(out::add);
    }
    out.sort(null);
    return out;
  }

  @Test
  void promtoolAcceptsEveryRuleFile() throws Exception {
    List<Path> rules = files(PROMETHEUS, "*-alerts.yml");
    assertThat(rules)
        .extracting(p -> p.getFileName().toString())
        .contains(
            "sluice-pipeline-alerts.yml",
            "sluice-tuner-alerts.yml",
            "sluice-throttle-alerts.yml",
            "sluice-tier-alerts.yml");
    for (Path file : rules) {
      String out = promtool("check", "rules", file.toString());
      assertThat(out).as(file.toString()).contains("SUCCESS");
    }
  }

  @Test
  void promtoolAcceptsTheScrapeConfigurationAndItLoadsEveryRuleFile() throws Exception {
    Path config = PROMETHEUS.resolve("prometheus.yml");
    assertThat(promtool("check", "config", "--syntax-only", config.toString())).contains("SUCCESS");
    String text = Files.readString(config);
    for (Path file : files(PROMETHEUS, "*-alerts.yml")) {
      assertThat(text)
          .as("prometheus.yml loads %s", file.getFileName())
          .contains("- " + file.getFileName());
    }
  }

  @Test
  void everyDashboardPanelQueriesPrometheus() throws Exception {
    List<Path> dashboards = files(GRAFANA, "*.json");
    assertThat(dashboards)
        .extracting(p -> p.getFileName().toString())
        .contains("sluice-pipeline.json", "sluice-tuner.json", "sluice-ess-fleet.json");
    ObjectMapper json = new ObjectMapper();
    for (Path file : dashboards) {
      JsonNode d = json.readTree(file.toFile());
      assertThat(d.path("uid").asText()).as(file + " uid").isNotBlank();
      assertThat(d.path("panels")).as(file + " panels").isNotEmpty();
      for (JsonNode panel : d.path("panels")) {
        if ("row"
            .equals(
                panel
                    .path("type")
                    .asText())) { // a row heads the panels below it and queries nothing
          assertThat(panel.path("title").asText()).as(file + " row title").isNotBlank();
          continue;
        }
        assertThat(panel.path("targets")).as(file + ": " + panel.path("title")).isNotEmpty();
        for (JsonNode target : panel.path("targets")) {
          assertThat(MetricNames.inExpression(target.path("expr").asText()))
              .as(file + ": " + panel.path("title") + " names a metric")
              .isNotEmpty();
        }
      }
    }
  }

  /** Runs promtool; a non-zero exit fails with its output. */
  static String promtool(String... args) throws Exception {
    List<String> cmd = new ArrayList<>(List.of("promtool"));
    cmd.addAll(List.of(args));
    Process p;
    try {
      p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    } catch (java.io.IOException e) {
      throw new AssertionError(
          "promtool is not on the PATH: run deploy/bin/install-promtool.sh", e);
    }
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(2, TimeUnit.MINUTES)).isTrue();
    assertThat(p.exitValue()).as(String.join(" ", cmd) + ":\n" + out).isZero();
    return out;
  }
}
