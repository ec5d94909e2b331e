package io.sluice.build;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.config.Catalogue;
import io.sluice.config.Setting;
import io.sluice.config.Unit;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Golden test: docs/configuration.md must be what the declarations generate, and document exactly
 * them.
 */
class ConfigurationDocTest {
  @Test
  void committedPageMatchesTheDeclarations() throws Exception {
    Path page = DocReferencesTest.repositoryRoot().resolve("docs/configuration.md");
    String generated = ConfigurationDoc.generate(Catalogues.all());
    if (Boolean.getBoolean("sluice.config.doc.write")) {
      Files.writeString(page, generated, StandardCharsets.UTF_8);
    }
    assertThat(page)
        .as("docs/configuration.md is missing; generate it with: " + ConfigurationDoc.REGENERATE)
        .exists();
    String committed = Files.readString(page, StandardCharsets.UTF_8);
    assertThat(ConfigurationDoc.mismatches(Catalogues.all(), committed))
        .as(
            "docs/configuration.md and the declarations disagree; regenerate it with: "
                + ConfigurationDoc.REGENERATE)
        .isEmpty();
    assertThat(committed)
        .as("docs/configuration.md is stale; regenerate it with: " + ConfigurationDoc.REGENERATE)
        .isEqualTo(generated);
  }

  @Test
  void everyComponentIsCoveredOnce() {
    List<String> components = Catalogues.all().stream().map(Catalogue::component).toList();
    assertThat(components)
        .doesNotHaveDuplicates()
        .contains(
            "ESS throttle gate",
            "ESS adapter",
            "YARN adapter",
            "Client shim",
            "Flink job",
            "Diagnosis rules",
            "tuner-service sluice.tier",
            "tuner-service sluice.tuner",
            "Spark listener",
            "Client (sluice-submit, Kyuubi advisor, driver plugins)",
            "Event-log collector (sluice collect)",
            "YARN poller (sluice poll-yarn)");
    assertThat(Catalogues.all())
        .allSatisfy(c -> assertThat(c.settings()).as(c.component()).isNotEmpty());
  }

  static final Setting<Long> KEPT = Setting.ofLong("x.kept", Unit.COUNT, 1, 0, 9, "kept");
  static final Setting<Long> ADDED = Setting.ofLong("x.added", Unit.COUNT, 1, 0, 9, "added");

  @Test
  void aDeclaredSettingMissingFromThePageAndADocumentedOneThatDoesNotExistAreNamed() {
    Catalogue before = Catalogue.of("Sample", "from a file", List.of(KEPT));
    String page =
        ConfigurationDoc.generate(List.of(before))
            + "| `x.gone` | 1 | count | 0 .. 9 | removed |\n";
    Catalogue after = Catalogue.of("Sample", "from a file", List.of(KEPT, ADDED));
    assertThat(ConfigurationDoc.mismatches(List.of(after), page))
        .containsExactly(
            "Sample: declared setting x.added is missing from the page",
            "Sample: documented key x.gone is not declared");
    assertThat(
            ConfigurationDoc.mismatches(List.of(after), ConfigurationDoc.generate(List.of(after))))
        .isEmpty();
  }

  @Test
  void aPageSectionForAComponentThatDeclaresNothingIsNamed() {
    Catalogue sample = Catalogue.of("Sample", "from a file", List.of(KEPT));
    String page =
        ConfigurationDoc.generate(List.of(sample))
            + "\n## Retired\n\n| `y.old` | 1 | count | 0 .. 9 | x |\n";
    assertThat(ConfigurationDoc.mismatches(List.of(sample), page))
        .containsExactly("section Retired documents a component that declares nothing");
  }

  @Test
  void theTableListsKeyDefaultUnitRangeAndMeaning() {
    Catalogue sample =
        Catalogue.of(
            "Sample part",
            "From `x.*` keys.",
            List.of(KEPT, Setting.ofText("x.name", "", "a | name")));
    String page = ConfigurationDoc.generate(List.of(sample));
    assertThat(page)
        .contains("| [Sample part](#sample-part) | 2 |\n")
        .contains("## Sample part\n\nFrom `x.*` keys.\n\n")
        .contains("| `x.kept` | 1 | count | 0 .. 9 | kept |\n")
        .contains("| `x.name` | (empty) | text | any | a \\| name |\n");
    assertThat(ConfigurationDoc.documentedKeys(page))
        .containsEntry("Sample part", List.of("x.kept", "x.name"));
  }
}
