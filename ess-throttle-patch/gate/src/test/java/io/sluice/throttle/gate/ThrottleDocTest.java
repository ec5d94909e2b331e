package io.sluice.throttle.gate;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import org.junit.jupiter.api.Test;

/** Golden test: docs/throttle.md must equal what the knob declarations generate. */
class ThrottleDocTest {
  static Path root() {
    String r = System.getProperty("sluice.root");
    if (r != null && Files.isDirectory(Paths.get(r, "ess-throttle-patch"))) {
      return Paths.get(r);
    }
    for (Path p = Paths.get("").toAbsolutePath(); p != null; p = p.getParent()) {
      if (Files.isDirectory(p.resolve("ess-throttle-patch"))
          && Files.isDirectory(p.resolve("docs"))) {
        return p;
      }
    }
    throw new IllegalStateException("repository root not found");
  }

  @Test
  void committedDocsMatchTheDeclarations() throws IOException {
    String generated = ThrottleDoc.generate(GateConfig.KNOBS);
    Path doc = root().resolve("docs/throttle.md");
    if (Boolean.getBoolean("sluice.throttle.doc.write")) {
      Files.createDirectories(doc.getParent());
      Files.writeString(doc, generated, StandardCharsets.UTF_8);
    }
    assertThat(Files.exists(doc))
        .as("docs/throttle.md is missing; generate it with: " + ThrottleDoc.REGENERATE)
        .isTrue();
    String committed = Files.readString(doc, StandardCharsets.UTF_8);
    assertThat(committed)
        .as("docs/throttle.md is stale; regenerate it with: " + ThrottleDoc.REGENERATE)
        .isEqualTo(generated);
  }

  @Test
  void docsNameEveryKnobWithItsDefault() {
    String text = ThrottleDoc.generate(GateConfig.KNOBS);
    for (Knob<?> k : GateConfig.KNOBS) {
      assertThat(text).contains("| `" + k.key() + "` | ");
    }
    assertThat(text)
        .contains("| `sluice.throttle.abnormal.p99Ms` | 10000 | milliseconds | 1 .. 3600000 |");
    assertThat(text)
        .contains("| `sluice.throttle.mode` | ENFORCE | enum | ENFORCE, MONITOR_ONLY |");
  }
}
