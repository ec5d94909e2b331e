package io.sluice.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The chart in deploy/helm/sluice renders with its defaults and with every values file under ci/
 * ({@code helm lint --strict} and {@code helm template}, helm built from its Go module by
 * deploy/bin/install-helm.sh), every Kubernetes manifest it renders validates against the
 * Kubernetes schemas ({@code kubernetes-validate --strict}, offline, from
 * deploy/bin/install-kubernetes-validate.sh), and values the schema or the templates refuse stop
 * the render with a message naming the value. The FlinkDeployment is a custom resource
 * kubernetes-validate has no schema for: its fields are checked here against what the job needs.
 */
class HelmChartITCase {

  static final Path ROOT = Dist.repoRoot();
  static final Path CHART = ROOT.resolve("deploy/helm/sluice");
  static final String KUBERNETES = "1.30.0";
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  @TempDir Path tmp;

  static Path tool(String relative, String installer) {
    Path p = ROOT.resolve(relative);
    assertThat(p).as("%s (run deploy/bin/%s)", relative, installer).isExecutable();
    return p;
  }

  record Result(int exit, String output) {}

  static Result run(List<String> cmd) throws Exception {
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(3, TimeUnit.MINUTES)).as(String.join(" ", cmd)).isTrue();
    return new Result(p.exitValue(), out);
  }

  static List<String> helm(String... args) {
    List<String> cmd =
        new ArrayList<>(List.of(tool(".sluice/tools/bin/helm", "install-helm.sh").toString()));
    cmd.addAll(List.of(args));
    return cmd;
  }

  static List<JsonNode> documents(String yaml) throws Exception {
    List<JsonNode> docs = new ArrayList<>();
    try (YAMLParser parser = new YAMLFactory().createParser(yaml)) {
      var it = YAML.readValues(parser, JsonNode.class);
      while (it.hasNext()) {
        JsonNode doc = it.next();
        if (doc != null && !doc.isNull() && !doc.isEmpty()) {
          docs.add(doc);
        }
      }
    }
    return docs;
  }

  /**
   * Renders with a values file (null: the defaults), lints, validates; returns the documents by
   * kind/name.
   */
  Map<String, JsonNode> renderAndValidate(Path values) throws Exception {
    List<String> valuesArgs = values == null ? List.of() : List.of("-f", values.toString());
    List<String> lint = new ArrayList<>(helm("lint", "--strict", CHART.toString()));
    lint.addAll(valuesArgs);
    Result linted = run(lint);
    assertThat(linted.exit()).as("helm lint %s:\n%s", values, linted.output()).isZero();

    List<String> template =
        new ArrayList<>(helm("template", "sluice", CHART.toString(), "--kube-version", KUBERNETES));
    template.addAll(valuesArgs);
    Result rendered = run(template);
    assertThat(rendered.exit()).as("helm template %s:\n%s", values, rendered.output()).isZero();

    Map<String, JsonNode> byKindAndName = new TreeMap<>();
    StringBuilder builtIn = new StringBuilder();
    for (JsonNode doc : documents(rendered.output())) {
      String kind = doc.path("kind").asText();
      byKindAndName.put(kind + "/" + doc.path("metadata").path("name").asText(), doc);
      if (!doc.path("apiVersion").asText().startsWith("flink.apache.org/")) {
        builtIn.append("---\n").append(YAML.writeValueAsString(doc));
      }
    }
    Path manifests =
        Files.writeString(
            tmp.resolve("manifests-" + (values == null ? "defaults" : values.getFileName())),
            builtIn.toString());
    Result validated =
        run(
            List.of(
                tool(
                        ".sluice/venv-kubeval/bin/kubernetes-validate",
                        "install-kubernetes-validate.sh")
                    .toString(),
                "--kubernetes-version",
                KUBERNETES,
                "--strict",
                manifests.toString()));
    assertThat(validated.exit())
        .as("kubernetes-validate %s:\n%s", values, validated.output())
        .isZero();
    assertThat(validated.output()).doesNotContain("ERROR").doesNotContain("WARN");
    return byKindAndName;
  }

  @Test
  void defaultsRenderEveryComponentAndValidate() throws Exception {
    Map<String, JsonNode> docs = renderAndValidate(null);
    assertThat(docs.keySet())
        .containsExactlyInAnyOrder(
            "ConfigMap/sluice-collectors",
            "ConfigMap/sluice-tuner",
            "Deployment/sluice-tuner",
            "FlinkDeployment/sluice-profiles",
            "PodDisruptionBudget/sluice-tuner",
            "Service/sluice-tuner",
            "ServiceAccount/sluice",
            "StatefulSet/sluice-eventlog-collector",
            "StatefulSet/sluice-yarn-poller");

    JsonNode flink = docs.get("FlinkDeployment/sluice-profiles");
    assertThat(flink.path("spec").path("flinkVersion").asText()).isEqualTo("v1_20");
    assertThat(flink.path("spec").path("job").path("entryClass").asText())
        .isEqualTo("io.sluice.flink.ShuffleProfileJob");
    assertThat(flink.path("spec").path("job").path("jarURI").asText()).startsWith("local:///");
    assertThat(flink.path("spec").path("flinkConfiguration").path("state.checkpoints.dir").asText())
        .isEqualTo("s3://sluice/flink/checkpoints");
    List<String> args = new ArrayList<>();
    flink.path("spec").path("job").path("args").forEach(a -> args.add(a.asText()));
    assertThat(args)
        .containsSubsequence("--local", "false")
        .containsSubsequence("--checkpoint.dir", "s3://sluice/flink/checkpoints")
        .containsSubsequence("--bootstrap.servers", "kafka:9092");

    String tunerConf =
        docs.get("ConfigMap/sluice-tuner").path("data").path("tuner-service.properties").asText();
    assertThat(tunerConf)
        .contains("sluice.tuner.store-url=jdbc:clickhouse://clickhouse:8123/sluice")
        .contains("sluice.security.tokens-file=/etc/sluice-security/tokens");
    JsonNode tuner = docs.get("Deployment/sluice-tuner").path("spec").path("template");
    assertThat(tuner.path("metadata").path("annotations").path("prometheus.io/path").asText())
        .isEqualTo("/actuator/prometheus");
    assertThat(tuner.path("spec").path("containers").get(0).path("command").get(0).asText())
        .isEqualTo("/opt/sluice/bin/sluice-tuner-service");

    // the collectors serve Prometheus on the pod's address, announced for annotation-based
    // discovery
    String collectorsConf =
        docs.get("ConfigMap/sluice-collectors")
            .path("data")
            .path("eventlog-collector.properties")
            .asText();
    assertThat(collectorsConf).contains("metrics-port = 9471").contains("metrics-host = 0.0.0.0");
    for (Map.Entry<String, Integer> c :
        Map.of("eventlog-collector", 9471, "yarn-poller", 9472).entrySet()) {
      JsonNode pod = docs.get("StatefulSet/sluice-" + c.getKey()).path("spec").path("template");
      assertThat(pod.path("metadata").path("annotations").path("prometheus.io/port").asText())
          .isEqualTo(String.valueOf(c.getValue()));
      assertThat(pod.path("metadata").path("annotations").path("prometheus.io/path").asText())
          .isEqualTo("/metrics");
      assertThat(
              pod.path("spec")
                  .path("containers")
                  .get(0)
                  .path("ports")
                  .get(0)
                  .path("containerPort")
                  .asInt())
          .isEqualTo(c.getValue());
    }
  }

  @Test
  void everyCiValuesFileRendersAndValidates() throws Exception {
    Map<String, Integer> kinds = new TreeMap<>();
    try (var files = Files.newDirectoryStream(CHART.resolve("ci"), "*.yaml")) {
      for (Path values : files) {
        Map<String, JsonNode> docs = renderAndValidate(values);
        kinds.put(values.getFileName().toString(), docs.size());
      }
    }
    assertThat(kinds)
        .containsOnlyKeys(
            "embedded-values.yaml", "production-values.yaml", "tuner-only-values.yaml");
    // embedded: tuner (ConfigMap, Deployment, Service, PVC), the event-log collector (ConfigMap,
    // StatefulSet), SA
    assertThat(kinds)
        .containsEntry("embedded-values.yaml", 7)
        .containsEntry("tuner-only-values.yaml", 4);
  }

  @Test
  void valuesTheSchemaOrTheTemplatesRefuseStopTheRenderNamingThem() throws Exception {
    Result badKafka =
        run(
            helm(
                "template", "sluice", CHART.toString(), "--set", "kafka.bootstrapServers=no-port"));
    assertThat(badKafka.exit()).isNotZero();
    assertThat(badKafka.output()).contains("bootstrapServers").contains("no-port");

    Result badKey = run(helm("template", "sluice", CHART.toString(), "--set", "tuner.replica=3"));
    assertThat(badKey.exit()).isNotZero();
    assertThat(badKey.output()).contains("replica");

    Result h2Replicas =
        run(
            helm(
                "template",
                "sluice",
                CHART.toString(),
                "--set",
                "tuner.persistence.enabled=true",
                "--set",
                "tuner.replicas=2"));
    assertThat(h2Replicas.exit()).isNotZero();
    assertThat(h2Replicas.output())
        .contains("tuner.persistence (the embedded H2 store) serves one replica");
  }
}
