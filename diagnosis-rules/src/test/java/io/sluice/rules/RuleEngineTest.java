package io.sluice.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.model.AppRun;
import io.sluice.model.Diagnosis;
import io.sluice.model.Severity;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RuleEngineTest {
  record Fixed(String id, Severity severity) implements Rule {
    public String description() { return "fixed"; }
    public Diagnosis evaluate(AppRun run) {
      return new Diagnosis(id, severity, List.of(), id, Map.of(), List.of());
    }
  }

  static final AppRun RUN = new AppRun("c", "a", "1", "k", "n", "u", "q", null, 0, 0, "SUCCEEDED", "3.5.7",
      null, null, null, null, 0);

  @Test
  void throwingRuleIsCountedAndOthersStillRun() {
    Rule boom = new Rule() {
      public String id() { return "BOOM"; }
      public String description() { return "throws"; }
      public Diagnosis evaluate(AppRun run) { throw new IllegalStateException("boom"); }
    };
    RuleEngine engine = new RuleEngine(List.of(new Fixed("A_RULE", Severity.LOW), boom,
        new Fixed("QUIET", Severity.NONE), new Fixed("Z_RULE", Severity.CRITICAL)));
    assertThat(engine.diagnose(RUN)).extracting(Diagnosis::ruleId).containsExactly("A_RULE", "Z_RULE");
    assertThat(engine.failures()).isEqualTo(1);
  }

  @Test
  void duplicateAndMalformedIdsFailFast() {
    assertThatThrownBy(() -> new RuleEngine(List.of(new Fixed("X", Severity.LOW), new Fixed("X", Severity.LOW))))
        .hasMessageContaining("duplicate rule id X").hasMessageContaining("known rules: [X]");
    assertThatThrownBy(() -> new RuleEngine(List.of(new Fixed("lower-case", Severity.LOW))))
        .hasMessageContaining("'lower-case'");
  }

  @Test
  void selectingAnUnknownRuleListsTheKnownOnes() {
    RuleEngine engine = new RuleEngine(List.of(new Fixed("A", Severity.LOW), new Fixed("B", Severity.LOW)));
    assertThat(engine.select(List.of("B")).ruleIds()).containsExactly("B");
    assertThatThrownBy(() -> engine.select(List.of("C"))).hasMessage("unknown rule id C; known rules: [A, B]");
  }
}
