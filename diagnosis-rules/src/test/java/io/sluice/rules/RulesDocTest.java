package io.sluice.rules;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import org.junit.jupiter.api.Test;

/** Golden test: docs/rules.md must equal what the declarations generate. */
class RulesDocTest {
  static Path root() {
    String r = System.getProperty("sluice.root");
    if (r != null && Files.isDirectory(Paths.get(r, "diagnosis-rules"))) {
      return Paths.get(r);
    }
    for (Path p = Paths.get("").toAbsolutePath(); p != null; p = p.getParent()) {
      if (Files.isDirectory(p.resolve("diagnosis-rules"))) {
        return p;
      }
    }
    throw new IllegalStateException("repository root not found");
  }

  @Test
  void committedDocsMatchTheDeclarations() throws IOException {
    String generated = RulesDoc.generate(RuleEngine.loadDefault().rules());
    Path doc = root().resolve("docs/rules.md");
    if (Boolean.getBoolean("sluice.rules.doc.write")) {
      Files.createDirectories(doc.getParent());
      Files.writeString(doc, generated, StandardCharsets.UTF_8);
    }
    assertThat(Files.exists(doc))
        .as("docs/rules.md is missing; generate it with: " + RulesDoc.REGENERATE)
        .isTrue();
    String committed = Files.readString(doc, StandardCharsets.UTF_8);
    assertThat(committed)
        .as("docs/rules.md is stale; regenerate it with: " + RulesDoc.REGENERATE)
        .isEqualTo(generated);
  }

  @Test
  void docsNameEveryRuleThresholdAndAllowedKey() {
    String text = RulesDoc.generate(RuleEngine.loadDefault().rules());
    for (Rule r : RuleEngine.loadDefault().rules()) {
      assertThat(text).contains("## " + r.id());
      for (Threshold t : r.thresholds()) {
        assertThat(text).contains("`sluice.rules." + r.id() + "." + t.name() + "`");
      }
    }
    for (AllowList.Key k : AllowList.defaults().keys()) {
      assertThat(text).contains("| `" + k.key() + "` |");
    }
    assertThat(text).contains("`spark.sql.adaptive.coalescePartitions.parallelismFirst` | true");
  }
}
