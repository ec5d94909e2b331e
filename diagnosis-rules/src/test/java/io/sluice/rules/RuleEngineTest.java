package io.sluice.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.config.Unit;
import io.sluice.model.AppRun;
import io.sluice.model.Diagnosis;
import io.sluice.model.Recommendation;
import io.sluice.model.Severity;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class RuleEngineTest {
  record Fixed(String id, Severity severity) implements Rule {
    public String description() {
      return "fixed";
    }

    public Diagnosis evaluate(AppRun run) {
      return new Diagnosis(id, severity, List.of(), id, Map.of(), List.of());
    }
  }

  static final AppRun RUN =
      new AppRun(
          "c",
          "a",
          "1",
          "k",
          "n",
          "u",
          "q",
          null,
          0,
          0,
          "SUCCEEDED",
          "3.5.7",
          null,
          null,
          null,
          null,
          0);

  @Test
  void throwingRuleIsCountedAndOthersStillRun() {
    Rule boom =
        new Rule() {
          public String id() {
            return "BOOM";
          }

          public String description() {
            return "throws";
          }

          public Diagnosis evaluate(AppRun run) {
            throw new IllegalStateException("boom");
          }
        };
    RuleEngine engine =
        new RuleEngine(
            List.of(
                new Fixed("A_RULE", Severity.LOW),
                boom,
                new Fixed("QUIET", Severity.NONE),
                new Fixed("Z_RULE", Severity.CRITICAL)));
    assertThat(engine.diagnose(RUN))
        .extracting(Diagnosis::ruleId)
        .containsExactly("A_RULE", "Z_RULE");
    assertThat(engine.failures()).isEqualTo(1);
  }

  @Test
  void duplicateAndMalformedIdsFailFast() {
    assertThatThrownBy(
            () ->
                new RuleEngine(List.of(new Fixed("X", Severity.LOW), new Fixed("X", Severity.LOW))))
        .hasMessageContaining("duplicate rule id X")
        .hasMessageContaining("known rules: [X]");
    assertThatThrownBy(() -> new RuleEngine(List.of(new Fixed("lower-case", Severity.LOW))))
        .hasMessageContaining("'lower-case'");
  }

  @Test
  void selectingAnUnknownRuleListsTheKnownOnes() {
    RuleEngine engine =
        new RuleEngine(List.of(new Fixed("A", Severity.LOW), new Fixed("B", Severity.LOW)));
    assertThat(engine.select(List.of("B")).ruleIds()).containsExactly("B");
    assertThatThrownBy(() -> engine.select(List.of("C")))
        .hasMessage("unknown rule id C; known rules: [A, B]");
  }

  /** A rule with declared thresholds that reports its bound settings as evidence. */
  record Tunable(RuleSettings settings) implements Rule {
    static final Threshold MIN = Threshold.of("minBlocks", Unit.COUNT, 1000, 1, 1e6, "min blocks");
    static final Grades AVG =
        Grades.falling(
            "avgBlockBytes",
            Unit.BYTES,
            "avg block",
            512 * 1024,
            128 * 1024,
            32 * 1024,
            4 * 1024,
            1,
            1L << 40);

    Tunable() {
      this(null);
    }

    public String id() {
      return "TUNABLE";
    }

    public String description() {
      return "tunable";
    }

    public List<Threshold> thresholds() {
      List<Threshold> out = new java.util.ArrayList<>(List.of(MIN));
      out.addAll(AVG.thresholds());
      return out;
    }

    public Rule withSettings(RuleSettings s) {
      return new Tunable(s);
    }

    public Diagnosis evaluate(AppRun run) {
      RuleSettings s = settings == null ? RuleSettings.defaults(this) : settings;
      Map<String, Double> ev = new java.util.TreeMap<>(s.values());
      return new Diagnosis(id(), s.grade(AVG, 30_000), List.of(), "t", ev, List.of());
    }
  }

  static Map<String, Double> evidence(RuleEngine engine) {
    return engine.diagnose(RUN).get(0).evidence();
  }

  @Test
  void configOverridesDeclaredThresholds() {
    assertThat(new RuleEngine(List.of(new Tunable())).diagnose(RUN).get(0).severity())
        .isEqualTo(Severity.SEVERE);
    RuleEngine engine =
        new RuleEngine(
            List.of(new Tunable()),
            RuleConfig.of(
                Map.of(
                    "sluice.rules.TUNABLE.minBlocks",
                    "50",
                    "sluice.rules.TUNABLE.avgBlockBytes.severe",
                    "16k",
                    "sluice.rules.TUNABLE.avgBlockBytes.critical",
                    "1024")));
    assertThat(evidence(engine))
        .containsEntry("minBlocks", 50.0)
        .containsEntry("avgBlockBytes.severe", 16384.0)
        .containsEntry("avgBlockBytes.critical", 1024.0)
        .containsEntry("avgBlockBytes.low", 524288.0);
    assertThat(engine.diagnose(RUN).get(0).severity()).isEqualTo(Severity.MODERATE);
  }

  @Test
  void badConfigFailsFastNamingKeyAndValue() {
    List<Rule> rules = List.of(new Tunable(), new Fixed("OTHER", Severity.LOW));
    assertThatThrownBy(
            () -> new RuleEngine(rules, RuleConfig.of(Map.of("sluice.rules.NOPE.minBlocks", "5"))))
        .hasMessageContaining("unknown rule id NOPE")
        .hasMessageContaining("known rules: [TUNABLE, OTHER]");
    assertThatThrownBy(
            () ->
                new RuleEngine(rules, RuleConfig.of(Map.of("sluice.rules.TUNABLE.maxBlocks", "5"))))
        .hasMessageContaining("sluice.rules.TUNABLE.maxBlocks=5")
        .hasMessageContaining("minBlocks, avgBlockBytes.low");
    assertThatThrownBy(
            () ->
                new RuleEngine(rules, RuleConfig.of(Map.of("sluice.rules.TUNABLE.minBlocks", "0"))))
        .hasMessage(
            "sluice.rules.TUNABLE.minBlocks=0 is outside the valid range [1, 1000000] (count)");
    assertThatThrownBy(
            () ->
                new RuleEngine(
                    rules, RuleConfig.of(Map.of("sluice.rules.TUNABLE.minBlocks", "many"))))
        .hasMessage("sluice.rules.TUNABLE.minBlocks=many is not a valid count value");
    assertThatThrownBy(
            () ->
                new RuleEngine(
                    rules,
                    RuleConfig.of(Map.of("sluice.rules.TUNABLE.avgBlockBytes.moderate", "1m"))))
        .hasMessageContaining("sluice.rules.TUNABLE.avgBlockBytes.* must fall from low to critical")
        .hasMessageContaining("sluice.rules.TUNABLE.avgBlockBytes.moderate=1048576");
    assertThatThrownBy(
            () ->
                new RuleEngine(rules, RuleConfig.of(Map.of("sluice.rules.OTHER.enabled", "maybe"))))
        .hasMessage("sluice.rules.OTHER.enabled=maybe is not true or false");
    assertThatThrownBy(() -> RuleConfig.of(Map.of("sluice.rule.TUNABLE.minBlocks", "5")))
        .hasMessageContaining("unknown rule configuration key sluice.rule.TUNABLE.minBlocks=5");
    assertThatThrownBy(() -> RuleConfig.of(Map.of("sluice.rules.lower.minBlocks", "5")))
        .hasMessageContaining("sluice.rules.lower.minBlocks=5");
    // a rule without thresholds accepts only 'enabled'
    assertThatThrownBy(
            () -> new RuleEngine(rules, RuleConfig.of(Map.of("sluice.rules.OTHER.x", "1"))))
        .hasMessageContaining("OTHER has: no thresholds");
  }

  @Test
  void configDisablesARuleAndSelectKeepsSettings() {
    Properties p = new Properties();
    p.setProperty("sluice.rules.A_RULE.enabled", "false");
    p.setProperty("sluice.rules.TUNABLE.minBlocks", "7");
    RuleEngine engine =
        new RuleEngine(List.of(new Fixed("A_RULE", Severity.LOW), new Tunable()), RuleConfig.of(p));
    assertThat(engine.ruleIds()).containsExactly("TUNABLE");
    assertThat(engine.enabled("A_RULE")).isFalse();
    assertThat(engine.rules()).extracting(Rule::id).containsExactly("A_RULE", "TUNABLE");
    assertThat(engine.diagnose(RUN)).extracting(Diagnosis::ruleId).containsExactly("TUNABLE");
    RuleEngine only = engine.select(List.of("TUNABLE"));
    assertThat(evidence(only)).containsEntry("minBlocks", 7.0);
    assertThat(
            RuleConfig.fromPrefixed(
                    Map.of("spark.app.name", "x", "sluice.rules.TUNABLE.minBlocks", "3"))
                .overrides("TUNABLE"))
        .containsExactly(Map.entry("minBlocks", "3"));
  }

  record Rogue(List<Recommendation> recs) implements Rule {
    public String id() {
      return "ROGUE";
    }

    public String description() {
      return "proposes whatever it likes";
    }

    public Diagnosis evaluate(AppRun run) {
      return new Diagnosis("ROGUE", Severity.SEVERE, List.of(1), "rogue", Map.of("x", 1.0), recs);
    }
  }

  @Test
  void recommendationsOutsideTheAllowListAreRejectedAndCounted() {
    List<Recommendation> proposed =
        List.of(
            new Recommendation("spark.sql.shuffle.partitions", "64", "ok"),
            new Recommendation("spark.executor.extraJavaOptions", "-Xss1g", "not on the list"),
            new Recommendation("spark.sql.shuffle.partitions", "0", "below 1"),
            new Recommendation("spark.sql.shuffle.partitions", "1000001", "above 100000"),
            new Recommendation("spark.sql.shuffle.partitions", "lots", "not a number"),
            new Recommendation("spark.io.compression.codec", "gzip", "not a choice"),
            new Recommendation("spark.executor.memory", "512m", "below 1g"),
            new Recommendation("spark.executor.memory", "4096", "4 GiB (bare number = MiB)"),
            new Recommendation("spark.sql.adaptive.advisoryPartitionSizeInBytes", "3g", "above 2g"),
            new Recommendation("spark.shuffle.io.retryWait", "1s", "below 5s"),
            new Recommendation("spark.sql.adaptive.enabled", "yes", "not a boolean"),
            new Recommendation("spark.memory.fraction", "0.95", "above 0.9"),
            new Recommendation("spark.io.compression.codec", "zstd", "ok"));
    RuleEngine engine =
        new RuleEngine(List.of(new Rogue(proposed), new Fixed("A_RULE", Severity.LOW)));
    List<Diagnosis> out = engine.diagnose(RUN);
    assertThat(out).extracting(Diagnosis::ruleId).containsExactly("ROGUE", "A_RULE");
    assertThat(out.get(0).recommendations())
        .extracting(Recommendation::key, Recommendation::value)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("spark.sql.shuffle.partitions", "64"),
            org.assertj.core.groups.Tuple.tuple("spark.executor.memory", "4096"),
            org.assertj.core.groups.Tuple.tuple("spark.io.compression.codec", "zstd"));
    assertThat(out.get(0).evidence()).containsEntry("x", 1.0);
    assertThat(engine.rejectedRecommendations()).isEqualTo(10);
    assertThat(engine.failures()).isZero();
  }

  @Test
  void aRecommendationForStagesItsKeyCannotActOnIsDropped() {
    // stage 0 writes a shuffle from spark.range (no input bytes), stage 1 reads it
    io.sluice.model.StageProfile range =
        new io.sluice.model.StageProfile(
            "a", 0, 0, "range", 4, 4, 0, 0, 4096, 40, 0, 0, 0, 0, 0, 0, 0, 0, 400, 100, 0, 0, 0, 0,
            0, 0, 0, 0, 0, 0, 0, 0);
    io.sluice.model.StageProfile reduce =
        new io.sluice.model.StageProfile(
            "a", 1, 0, "reduce", 4, 4, 0, 0, 0, 0, 4096, 0, 16, 0, 10, 40, 0, 0, 400, 100, 256, 0,
            1, 4, 4, 0, 0, 0, 1024, 1024, 0, 0);
    AppRun run =
        new AppRun(
            "c",
            "a",
            "1",
            "k",
            "n",
            "u",
            "q",
            null,
            0,
            0,
            "SUCCEEDED",
            "3.5.7",
            null,
            null,
            List.of(range, reduce),
            null,
            0);
    Rule splits =
        new Rule() {
          public String id() {
            return "SPLITS";
          }

          public String description() {
            return "asks for larger splits";
          }

          public Diagnosis evaluate(AppRun r) {
            return new Diagnosis(
                "SPLITS",
                Severity.SEVERE,
                List.of(0),
                "small",
                Map.of(),
                List.of(
                    new Recommendation(
                        "spark.sql.files.maxPartitionBytes", "512m", "larger splits"),
                    new Recommendation(
                        "spark.io.compression.codec", "zstd", "smaller map output")));
          }
        };
    RuleEngine engine = new RuleEngine(List.of(splits));
    assertThat(engine.diagnose(run).get(0).recommendations())
        .extracting(Recommendation::key)
        .containsExactly("spark.io.compression.codec");
    assertThat(engine.rejectedRecommendations()).isEqualTo(1);
    assertThat(
            AllowList.defaults()
                .outOfScope(
                    new Recommendation("spark.sql.files.maxPartitionBytes", "512m", ""),
                    List.of(range)))
        .contains(
            "spark.sql.files.maxPartitionBytes acts on file-scan stages only, and none of the "
                + "diagnosed stages is one");
    assertThat(
            AllowList.defaults()
                .outOfScope(
                    new Recommendation("spark.sql.shuffle.partitions", "50", ""), List.of(reduce)))
        .isEmpty();
  }

  @Test
  void allowListExplainsRejections() {
    AllowList list = AllowList.defaults();
    assertThat(list.check(new Recommendation("spark.foo", "1", "")))
        .contains("key spark.foo is not on the allow-list");
    assertThat(list.check(new Recommendation("spark.sql.files.maxPartitionBytes", "128g", "")))
        .contains("spark.sql.files.maxPartitionBytes=128g is outside 1m .. 64g");
    assertThat(list.check(new Recommendation("spark.sql.files.maxPartitionBytes", "40g", "")))
        .isEmpty();
    assertThat(list.keys())
        .extracting(AllowList.Key::key)
        .contains(
            "spark.sql.shuffle.partitions",
            "spark.sql.adaptive.coalescePartitions.parallelismFirst",
            "spark.io.compression.codec");
  }

  @Test
  void aDiagnosisUnderAnotherRulesIdCountsAsAFailure() {
    Rule liar =
        new Rule() {
          public String id() {
            return "LIAR";
          }

          public String description() {
            return "reports for another rule";
          }

          public Diagnosis evaluate(AppRun run) {
            return new Diagnosis("A_RULE", Severity.LOW, null, "", null, null);
          }
        };
    RuleEngine engine = new RuleEngine(List.of(liar));
    assertThat(engine.diagnose(RUN)).isEmpty();
    assertThat(engine.failures()).isEqualTo(1);
  }
}
