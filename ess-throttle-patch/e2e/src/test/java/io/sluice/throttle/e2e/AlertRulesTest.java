package io.sluice.throttle.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.sluice.throttle.gate.CachingPriorityMap;
import io.sluice.throttle.gate.Clock;
import io.sluice.throttle.gate.Decision;
import io.sluice.throttle.gate.GateConfig;
import io.sluice.throttle.gate.GateMode;
import io.sluice.throttle.gate.NodeState;
import io.sluice.throttle.gate.ThrottleGate;
import io.sluice.throttle.gate.Ticket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * deploy/prometheus/sluice-throttle-alerts.yml against the gate's real meters: the file parses as
 * Prometheus rule groups, and every {@code sluice_*} metric it names (in expressions and
 * annotations) appears in the Prometheus output of real gates (ENFORCE driven into ABNORMAL with
 * holds and SLEEP directives, MONITOR_ONLY, a priority source that is down), so renaming a meter
 * fails here. The YARN adapter's hook gauge is checked against the name the adapter registers (its
 * service needs a NodeManager; see below).
 */
class AlertRulesTest {
  static final Path ROOT = Path.of(System.getProperty("sluice.root", "../.."));
  static final Path RULES = ROOT.resolve("deploy/prometheus/sluice-throttle-alerts.yml");
  static final Pattern METRIC = Pattern.compile("\\bsluice_[a-z0-9_]+");

  /** Prometheus series suffixes that belong to one Micrometer meter. */
  static final Pattern SERIES =
      Pattern.compile("^(sluice_[a-z0-9_]+?)(_total|_count|_sum|_max|_bucket)?[{ ]");

  /** A fake clock the test moves. */
  static final class FakeClock implements Clock {
    long nanos = 1_000_000_000L;

    @Override
    public long nanoTime() {
      return nanos;
    }

    void advanceMillis(long ms) {
      nanos += TimeUnit.MILLISECONDS.toNanos(ms);
    }
  }

  static GateConfig config(GateMode mode) {
    return GateConfig.defaults()
        .with(GateConfig.MODE, mode)
        .with(GateConfig.NORMAL_P99_MS, 500L)
        .with(GateConfig.ABNORMAL_P99_MS, 1_000L)
        .with(GateConfig.MIN_SAMPLES, 5L)
        .with(GateConfig.BUDGET_MIN_BLOCKS, 1L)
        .with(GateConfig.BUDGET_FRACTION, 0.1)
        // one 200 ms pause fills the shim app's pause budget: its next request over range is held
        .with(GateConfig.SLEEP_MAX_MS, 200L)
        .with(GateConfig.SLEEP_BUDGET_MS, 200L);
  }

  /**
   * The metric names of a real gate's Prometheus output after it has held requests and sent SLEEP
   * directives.
   */
  static Set<String> exportedNames() {
    Set<String> names = new TreeSet<>();
    ScheduledExecutorService never = Executors.newSingleThreadScheduledExecutor();
    try {
      for (GateMode mode : GateMode.values()) {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        FakeClock clock = new FakeClock();
        GateConfig cfg = config(mode);
        CachingPriorityMap down =
            CachingPriorityMap.fromConfig(
                cfg,
                () -> {
                  throw new IllegalStateException("tuner-service down");
                },
                clock,
                never);
        down.refreshNow();
        ThrottleGate gate =
            ThrottleGate.builder()
                .config(cfg)
                .clock(clock)
                .priorities(down)
                .meterRegistry(registry)
                .build();
        // slow service times push the node ABNORMAL
        for (int i = 0; i < 10; i++) {
          Ticket t = gate.onFetch("app-heavy", 10, () -> {});
          t.served(10);
          clock.advanceMillis(2_000);
          t.finished(true);
        }
        gate.tick();
        gate.markShim("app-shim");
        EnumSet<Decision> seen = EnumSet.noneOf(Decision.class);
        List<Ticket> open = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
          Ticket h = gate.onFetch("app-heavy", 10, () -> {});
          Ticket s = gate.onFetch("app-shim", 10, () -> {});
          seen.add(h.decision());
          seen.add(s.decision());
          open.add(h);
          open.add(s);
          clock.advanceMillis(250); // past the pause: the next one would overrun the budget
        }
        if (mode == GateMode.ENFORCE) {
          assertThat(gate.state()).isEqualTo(NodeState.ABNORMAL);
          assertThat(seen)
              .as("the driven gate held and slept")
              .contains(Decision.HOLD, Decision.SLEEP);
        }
        for (String line : registry.scrape().split("\n")) {
          Matcher m = SERIES.matcher(line);
          if (!line.startsWith("#") && m.find()) {
            names.add(m.group(1));
            names.add(line.substring(0, line.indexOf(line.contains("{") ? '{' : ' ')));
          }
        }
        open.forEach(t -> t.finished(false));
        down.close();
      }
    } finally {
      never.shutdownNow();
    }
    return names;
  }

  @Test
  void everyMetricTheRulesNameIsExportedByTheGate() throws Exception {
    JsonNode root = new ObjectMapper(new YAMLFactory()).readTree(Files.readString(RULES));
    JsonNode rules = root.get("groups").get(0).get("rules");
    assertThat(rules.size()).isGreaterThanOrEqualTo(4);
    Set<String> used = new TreeSet<>();
    for (JsonNode r : rules) {
      assertThat(r.get("alert").asText()).startsWith("SluiceEss");
      assertThat(r.get("expr").asText()).isNotBlank();
      assertThat(r.get("for").asText()).matches("\\d+m");
      assertThat(r.get("labels").get("severity").asText()).isIn("info", "warning", "critical");
      assertThat(r.get("annotations").get("summary").asText()).isNotBlank();
      Matcher m = METRIC.matcher(r.toString());
      while (m.find()) {
        used.add(m.group());
      }
    }
    assertThat(used)
        .contains(
            "sluice_throttle_state",
            "sluice_throttle_decisions_total",
            "sluice_throttle_directives_total",
            "sluice_throttle_yarn_hook_installed");
    Set<String> exported = exportedNames();
    // The YARN adapter registers its hook gauge next to the gate's meters
    // (SluiceYarnShuffleService.bindMeters);
    // that service only starts inside a NodeManager, which the yarn module's MiniYARNCluster test
    // covers.
    String yarnSource =
        Files.readString(
            ROOT.resolve(
                "ess-throttle-patch/yarn/src/main/java/io/sluice/throttle/yarn/SluiceYarnShuffleService.java"));
    if (yarnSource.contains("\"sluice.throttle.yarn.hook.installed\"")) {
      exported.add("sluice_throttle_yarn_hook_installed");
    }
    assertThat(exported).as("gate meters in Prometheus form").contains("sluice_throttle_state");
    assertThat(exported).containsAll(used);
  }
}
