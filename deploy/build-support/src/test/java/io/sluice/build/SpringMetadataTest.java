package io.sluice.build;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.config.Catalogue;
import io.sluice.config.Setting;
import io.sluice.config.Unit;
import java.util.List;
import org.junit.jupiter.api.Test;

class SpringMetadataTest {
  static final String SAMPLE =
      """
      {"groups": [
        {"name": "sluice.tier", "type": "io.sluice.tuner.tier.TierProperties",
         "sourceType": "io.sluice.tuner.tier.TierProperties"},
        {"name": "sluice.tier.celeborn", "type": "io.sluice.tuner.tier.TierProperties$TierSettings",
         "sourceType": "io.sluice.tuner.tier.TierProperties", "sourceMethod": "celeborn()"},
        {"name": "sluice.tier.alerts", "type": "io.sluice.tuner.tier.outcome.TierAlertProperties",
         "sourceType": "io.sluice.tuner.tier.outcome.TierAlertProperties"},
        {"name": "server", "type": "org.springframework.boot.autoconfigure.web.ServerProperties",
         "sourceType": "org.springframework.boot.autoconfigure.web.ServerProperties"}],
       "properties": [
        {"name": "sluice.tier.history-timeout", "type": "java.time.Duration", "defaultValue": "50ms",
         "description": "time limit of one {@code read}", "sourceType": "io.sluice.tuner.tier.TierProperties"},
        {"name": "sluice.tier.celeborn.free-capacity", "type": "org.springframework.util.unit.DataSize",
         "defaultValue": "0B", "description": "Free capacity.",
         "sourceType": "io.sluice.tuner.tier.TierProperties$TierSettings"},
        {"name": "sluice.tier.history-runs", "type": "java.lang.Integer", "defaultValue": 10,
         "sourceType": "io.sluice.tuner.tier.TierProperties"},
        {"name": "sluice.tier.celeborn.max-free-share", "type": "java.lang.Double", "defaultValue": 0.5,
         "sourceType": "io.sluice.tuner.tier.TierProperties$TierSettings"},
        {"name": "sluice.tier.celeborn.unknown-jobs", "type": "io.sluice.tuner.tier.AdmissionPolicy$UnknownJobs",
         "defaultValue": "refuse", "sourceType": "io.sluice.tuner.tier.TierProperties$TierSettings"},
        {"name": "sluice.tier.celeborn.fallback-policy", "type": "java.lang.String", "defaultValue": "AUTO",
         "sourceType": "io.sluice.tuner.tier.TierProperties$TierSettings"},
        {"name": "sluice.tier.alerts.enabled", "type": "java.lang.Boolean", "defaultValue": true,
         "sourceType": "io.sluice.tuner.tier.outcome.TierAlertProperties"},
        {"name": "sluice.tier.alerts.queues", "type": "java.util.List<java.lang.String>", "defaultValue": ["a", "b"],
         "sourceType": "io.sluice.tuner.tier.outcome.TierAlertProperties"},
        {"name": "server.port", "type": "java.lang.Integer",
         "sourceType": "org.springframework.boot.autoconfigure.web.ServerProperties"}]}
      """;

  @Test
  void oneCataloguePerPropertiesRecordWithKeysDefaultsUnitsAndDocs() throws Exception {
    List<Catalogue> cs = catalogues();
    assertThat(cs)
        .extracting(Catalogue::component)
        .containsExactly("tuner-service sluice.tier", "tuner-service sluice.tier.alerts");
    assertThat(cs.get(0).settings())
        .extracting(Setting::key)
        .containsExactly(
            "sluice.tier.celeborn.fallback-policy",
            "sluice.tier.celeborn.free-capacity",
            "sluice.tier.celeborn.max-free-share",
            "sluice.tier.celeborn.unknown-jobs",
            "sluice.tier.history-runs",
            "sluice.tier.history-timeout");
    Setting<?> timeout = cs.get(0).find("sluice.tier.history-timeout");
    assertThat(timeout.unit()).isEqualTo(Unit.DURATION);
    assertThat(timeout.defaultText()).isEqualTo("50ms");
    assertThat(timeout.description()).isEqualTo("Time limit of one `read`.");
    assertThat(cs.get(0).find("sluice.tier.celeborn.free-capacity").unit()).isEqualTo(Unit.SIZE);
    assertThat(cs.get(1).find("sluice.tier.alerts.enabled").defaultText()).isEqualTo("true");
    assertThat(cs.get(1).find("sluice.tier.alerts.queues").defaultText()).isEqualTo("a,b");
    assertThat(cs.get(1).find("sluice.tier.alerts.queues").unit()).isEqualTo(Unit.LIST);
  }

  private static List<Catalogue> catalogues() throws Exception {
    return SpringMetadata.catalogues(
        new ObjectMapper().readTree(SAMPLE),
        new PropertyConstraints(SpringMetadataTest.class.getClassLoader()));
  }

  @Test
  void theValidValuesComeFromTheRecordsConstraintsAndTypes() throws Exception {
    Catalogue tier = catalogues().get(0);
    assertThat(tier.find("sluice.tier.history-runs").range()).isEqualTo("1 .. 200");
    assertThat(tier.find("sluice.tier.celeborn.max-free-share").range())
        .isEqualTo("above 0, at most 1");
    assertThat(tier.find("sluice.tier.celeborn.unknown-jobs").range())
        .isEqualTo("REFUSE, ADMIT_IF_ROOM");
    assertThat(tier.find("sluice.tier.celeborn.fallback-policy").range())
        .isEqualTo("matches (?i)AUTO|ALWAYS|NEVER");
    assertThat(tier.find("sluice.tier.history-timeout").range())
        .as("@NotNull alone does not constrain the value")
        .isEqualTo("any");
    assertThat(catalogues().get(1).find("sluice.tier.alerts.enabled").range())
        .isEqualTo("true, false");
  }

  @Test
  void typesMapToUnits() {
    assertThat(SpringMetadata.unit("java.lang.Long")).isEqualTo(Unit.NUMBER);
    assertThat(SpringMetadata.unit("java.util.Map<java.lang.String,java.lang.String>"))
        .isEqualTo(Unit.MAP);
    assertThat(SpringMetadata.unit("java.nio.file.Path")).isEqualTo(Unit.TEXT);
    assertThat(SpringMetadata.unit("io.sluice.model.Severity")).isEqualTo(Unit.ENUM);
  }
}
