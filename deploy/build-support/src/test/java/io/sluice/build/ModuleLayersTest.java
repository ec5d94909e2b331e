package io.sluice.build;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * Module dependencies point down the tree (docs/architecture.md, "Modules"): every Sluice module
 * has a rank, and a dependency that ships with it (any scope but {@code test}) must go to a
 * strictly lower rank. A new module fails here until it is given its rank, so the picture is
 * decided, not drifted into.
 */
class ModuleLayersTest {

  /**
   * Rank of each module: setting declarations, then the contracts and the domain at the bottom,
   * tests on top.
   */
  static final Map<String, Integer> RANKS =
      ranks(
          0,
          "sluice-config",
          1,
          "sluice-contracts",
          "sluice-diagnosis-rules",
          "sluice-throttle-gate",
          "sluice-local-kafka",
          "sluice-fallback-test-support",
          2,
          "sluice-event-core",
          "sluice-kafka-security",
          "sluice-history-store",
          "sluice-fallback-conf",
          3,
          "sluice-spark-listener",
          "sluice-collectors",
          "sluice-tuner-client",
          "sluice-throttle-ess",
          "sluice-fallback-manager",
          "sluice-ui",
          4,
          "sluice-cli",
          "sluice-flink-job",
          "sluice-throttle-yarn",
          "sluice-throttle-shim",
          "sluice-tuner-service",
          5,
          "sluice-e2e",
          "sluice-throttle-e2e",
          "sluice-fallback-yarn-it",
          "sluice-distribution",
          "sluice-build-support");

  /** Parent and aggregator poms: they hold no code and nothing depends on them. */
  static final String AGGREGATOR_SUFFIX = "-parent";

  record Dependency(String from, String to, String scope) {}

  @Test
  void everyModuleHasARankAndDependsOnlyDownwards() throws Exception {
    Path root = DocReferencesTest.repositoryRoot();
    List<String> problems = new ArrayList<>();
    for (Path pom : poms(root)) {
      String module = artifactId(pom);
      if (module.endsWith(AGGREGATOR_SUFFIX) || module.startsWith("sluice-bench")) {
        continue; // benchmarks sit on top of everything; nothing may depend on them (checked below)
      }
      if (!RANKS.containsKey(module)) {
        problems.add(module + " (" + root.relativize(pom) + ") has no rank in ModuleLayersTest");
      }
    }
    for (Dependency d : dependencies(root)) {
      problems.addAll(check(d));
    }
    assertThat(problems).isEmpty();
  }

  @Test
  void aDependencyBackUpTheTreeIsReported() {
    assertThat(check(new Dependency("sluice-fallback-manager", "sluice-tuner-client", "provided")))
        .containsExactly(
            "sluice-fallback-manager (rank 3) depends on sluice-tuner-client (rank 3, provided)");
    assertThat(check(new Dependency("sluice-diagnosis-rules", "sluice-event-core", "compile")))
        .containsExactly(
            "sluice-diagnosis-rules (rank 1) depends on sluice-event-core (rank 2, compile)");
    assertThat(check(new Dependency("sluice-tuner-service", "sluice-bench-ui", "compile")))
        .containsExactly("sluice-tuner-service depends on the benchmark sluice-bench-ui");
    assertThat(check(new Dependency("sluice-tuner-service", "sluice-e2e", "test"))).isEmpty();
    assertThat(check(new Dependency("sluice-fallback-manager", "sluice-contracts", "compile")))
        .isEmpty();
  }

  static List<String> check(Dependency d) {
    if (d.to().startsWith("sluice-bench") && !d.from().startsWith("sluice-bench")) {
      return List.of(d.from() + " depends on the benchmark " + d.to());
    }
    if ("test".equals(d.scope()) || d.from().startsWith("sluice-bench")) {
      return List.of();
    }
    Integer from = RANKS.get(d.from());
    Integer to = RANKS.get(d.to());
    if (from == null || to == null || to < from) {
      return List.of(); // an unranked module is reported by the rank check
    }
    return List.of(
        d.from()
            + " (rank "
            + from
            + ") depends on "
            + d.to()
            + " (rank "
            + to
            + ", "
            + d.scope()
            + ")");
  }

  static List<Dependency> dependencies(Path root) throws Exception {
    List<Dependency> out = new ArrayList<>();
    for (Path pom : poms(root)) {
      Element project = parse(pom);
      String from = text(project, "artifactId");
      Element deps = child(project, "dependencies");
      if (deps == null) {
        continue;
      }
      for (Node n = deps.getFirstChild(); n != null; n = n.getNextSibling()) {
        if (n instanceof Element dep && dep.getTagName().equals("dependency")) {
          String group = text(dep, "groupId");
          String to = text(dep, "artifactId");
          if ("io.sluice".equals(group) && to != null) {
            String scope = text(dep, "scope");
            out.add(new Dependency(from, to, scope == null ? "compile" : scope));
          }
        }
      }
    }
    return out;
  }

  private static List<Path> poms(Path root) throws IOException {
    try (Stream<Path> walk = Files.walk(root)) {
      return walk.filter(p -> p.getFileName().toString().equals("pom.xml"))
          .filter(p -> root.relativize(p).toString().split("[/\\\\]").length > 1)
          .filter(
              p ->
                  !p.toString().contains("/target/")
                      && !p.toString().contains("/node_modules/")
                      && !p.toString().contains("/.sluice/"))
          .sorted()
          .toList();
    }
  }

  private static String artifactId(Path pom) throws Exception {
    return text(parse(pom), "artifactId");
  }

  private static Element parse(Path pom) throws Exception {
    return DocumentBuilderFactory.newInstance()
        .newDocumentBuilder()
        .parse(pom.toFile())
        .getDocumentElement();
  }

  private static Element child(Element parent, String tag) {
    for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element e && e.getTagName().equals(tag)) {
        return e;
      }
    }
    return null;
  }

  private static String text(Element parent, String tag) {
    Element e = child(parent, tag);
    return e == null ? null : e.getTextContent().trim();
  }

  private static Map<String, Integer> ranks(Object... rankThenNames) {
    Map<String, Integer> out = new TreeMap<>();
    int rank = -1;
    for (Object o : rankThenNames) {
      if (o instanceof Integer r) {
        rank = r;
      } else {
        out.put((String) o, rank);
      }
    }
    return Map.copyOf(out);
  }
}
