package io.sluice.rules;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class RuleCatalogTest {
  @Test
  void theBuiltInRulesAreRegisteredInOrder() {
    assertThat(RuleEngine.loadDefault().ruleIds())
        .containsExactly(
            "SHUFFLE_SMALL_BLOCKS",
            "SHUFFLE_FETCH_WAIT",
            "SHUFFLE_FETCH_FAILURES",
            "SHUFFLE_READ_SKEW",
            "SHUFFLE_SPILL",
            "TOO_MANY_SMALL_TASKS",
            "TOO_FEW_PARTITIONS",
            "AQE_ADVISORY_IGNORED",
            "INPUT_SPLITS_TOO_SMALL",
            "SHUFFLE_CODEC",
            "DYNAMIC_ALLOCATION_WITHOUT_ESS");
  }

  @Test
  void everyRuleIsDocumentedAndItsDefaultsValidate() {
    for (Rule r : RuleEngine.loadDefault().rules()) {
      assertThat(r.description()).as(r.id()).isNotBlank();
      assertThat(r.documentation()).as(r.id()).isNotBlank();
      assertThat(r.thresholds()).as(r.id()).isNotEmpty();
      RuleSettings d = RuleSettings.defaults(r);
      for (Threshold t : r.thresholds()) {
        assertThat(d.get(t)).isEqualTo(t.defaultValue());
        assertThat(t.description()).isNotBlank();
      }
      assertThat(r.withSettings(d).id()).isEqualTo(r.id());
    }
  }

  @Test
  void sparkSizesParseLikeSpark() {
    assertThat(Sizes.parseBytes("64m", 1)).isEqualTo(64L << 20);
    assertThat(Sizes.parseBytes("131072", 1)).isEqualTo(131072);
    assertThat(Sizes.parseBytes("2g", 1)).isEqualTo(2L << 30);
    assertThat(Sizes.parseBytes("512", Sizes.MIB)).isEqualTo(512L << 20);
    assertThat(Sizes.parseMillis("5s", 1000)).isEqualTo(5000);
    assertThat(Sizes.parseMillis("2min", 1000)).isEqualTo(120_000);
    assertThat(Sizes.sparkBytes(128L << 20)).isEqualTo("128m");
    assertThat(Sizes.sparkBytes(1L << 30)).isEqualTo("1g");
    assertThat(Sizes.sparkBytes(1000)).isEqualTo("1000");
    for (String bad : List.of("1.5g", "", "12 parsecs", "-1")) {
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> Sizes.parseBytes(bad, 1))
          .isInstanceOf(IllegalArgumentException.class);
    }
  }

  @Test
  void runConfUsesSparkDefaultsByVersion() {
    RunConf v35 = new RunConf(java.util.Map.of(), "3.5.7");
    assertThat(v35.aqeEnabled()).isTrue();
    assertThat(v35.parallelismFirst()).isTrue();
    assertThat(v35.advisoryExplicit()).isFalse();
    assertThat(v35.advisoryBytes()).isEqualTo(64L << 20);
    assertThat(v35.shufflePartitions()).isEqualTo(200);
    assertThat(v35.codec()).isEqualTo("lz4");
    assertThat(v35.shuffleTracking()).isTrue();
    assertThat(v35.shuffleTrackingTimeoutMs()).isEqualTo(-1);
    assertThat(v35.executorMemoryBytes()).isEqualTo(1L << 30);
    RunConf v31 = new RunConf(java.util.Map.of(), "3.1.3");
    assertThat(v31.aqeEnabled()).isFalse();
    assertThat(v31.shuffleTracking()).isFalse();
    RunConf legacy =
        new RunConf(
            java.util.Map.of(
                "spark.sql.adaptive.shuffle.targetPostShuffleInputSize",
                "128m",
                "spark.executor.memory",
                "2048"),
            null);
    assertThat(legacy.advisoryExplicit()).isTrue();
    assertThat(legacy.advisoryBytes()).isEqualTo(128L << 20);
    assertThat(legacy.executorMemoryBytes()).isEqualTo(2L << 30);
    assertThat(legacy.aqeEnabled()).isTrue();
  }
}
