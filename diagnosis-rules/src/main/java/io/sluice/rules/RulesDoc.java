package io.sluice.rules;

import io.sluice.config.Unit;
import java.util.List;

/**
 * Generates docs/rules.md from the declarations: every registered rule with its documentation and
 * thresholds, the Spark defaults the rules assume, and the recommendation allow-list. {@code
 * RulesDocTest} fails when the committed file differs.
 *
 * <p>The golden test regenerates it ({@link #REGENERATE}); there is no separate entry point.
 */
public final class RulesDoc {
  /** How to regenerate the committed file (printed by the golden test when it is stale). */
  public static final String REGENERATE =
      "mvn -q -B -pl diagnosis-rules test -Dtest=RulesDocTest -Dsluice.rules.doc.write=true";

  private RulesDoc() {}

  public static String generate(List<Rule> rules) {
    StringBuilder b = new StringBuilder();
    b.append("# Diagnosis rules\n\n")
        .append(
            "<!-- Generated from the rule declarations by io.sluice.rules.RulesDoc; do not edit.\n")
        .append("     Regenerate: ")
        .append(REGENERATE)
        .append(" -->\n\n")
        .append(
            "Each rule reads one `AppRun` (its stage profiles and Spark properties) and returns a `Diagnosis`: a ")
        .append(
            "severity (NONE, LOW, MODERATE, SEVERE, CRITICAL) graded by the thresholds below, the stage ids ")
        .append("concerned, a summary, named evidence numbers and recommendations. ")
        .append(
            "Rules are found with `ServiceLoader` (`META-INF/services/io.sluice.rules.Rule`).\n\n")
        .append("## Configuration\n\n")
        .append(
            "Thresholds are overridden with flat keys (for example in the properties file given to ")
        .append("`sluice diagnose --rules-config FILE`):\n\n")
        .append("```properties\n")
        .append(
            "sluice.rules.<RULE_ID>.<threshold>=<number>   # bytes also take k, m, g, t suffixes (binary)\n")
        .append("sluice.rules.<RULE_ID>.enabled=false          # turns a rule off\n")
        .append("```\n\n")
        .append(
            "An unknown rule id or threshold, a value that does not parse or lies outside the valid range, and ")
        .append(
            "graded thresholds out of order (low to critical) fail at start-up with a message naming the key ")
        .append(
            "and the value. A rule that throws is logged and counted; the other rules still run.\n\n")
        .append("| rule | detects |\n|---|---|\n");
    for (Rule r : rules) {
      b.append("| [")
          .append(r.id())
          .append("](#")
          .append(r.id().toLowerCase(java.util.Locale.ROOT))
          .append(") | ")
          .append(cell(r.description()))
          .append(" |\n");
    }
    for (Rule r : rules) {
      b.append("\n## ")
          .append(r.id())
          .append("\n\n")
          .append(r.description())
          .append("\n\n")
          .append(r.documentation().strip())
          .append("\n\n");
      if (r.thresholds().isEmpty()) {
        b.append("No thresholds.\n");
        continue;
      }
      b.append("| key | default | unit | valid range | meaning |\n|---|---|---|---|---|\n");
      for (Threshold t : r.thresholds()) {
        b.append("| `")
            .append(RuleConfig.key(r.id(), t.name()))
            .append("` | ")
            .append(value(t, t.defaultValue()))
            .append(" | ")
            .append(t.unit().label())
            .append(" | ")
            .append(value(t, t.min()))
            .append(" .. ")
            .append(value(t, t.max()))
            .append(" | ")
            .append(cell(t.description()))
            .append(" |\n");
      }
    }
    b.append(
        "\n## Spark defaults assumed when a key is unset\n\n| key | default | note |\n|---|---|---|\n");
    for (RunConf.SparkDefault d : RunConf.DEFAULTS) {
      b.append("| `")
          .append(d.key())
          .append("` | ")
          .append(cell(d.value()))
          .append(" | ")
          .append(cell(d.note()))
          .append(" |\n");
    }
    b.append("\n## Recommendation allow-list\n\n")
        .append(
            "Rules may recommend only these keys, with values within these bounds; the engine drops (and counts) ")
        .append(
            "any other recommendation. *Runtime* keys are SQL confs that can change while an application runs; ")
        .append(
            "the others take effect only at submit. *Judged on* lists the figures a change of the key must ")
        .append(
            "move (over the stages of their kind) to be kept; wall time is only the guard against regressions. ")
        .append(
            "Keys of one *lever* act together and are judged as one change; a recommendation whose key acts on ")
        .append("stage kinds the diagnosed stages are not is dropped.\n\n")
        .append(
            "| key | values | when | judged on | lever | meaning |\n|---|---|---|---|---|---|\n");
    for (AllowList.Key k : AllowList.defaults().keys()) {
      String figures =
          k.figures().isEmpty()
              ? "wall time only"
              : String.join(
                  ", ",
                  k.figures().stream()
                      .map(f -> f.label() + " (" + f.kind().label() + ")")
                      .toList());
      b.append("| `")
          .append(k.key())
          .append("` | ")
          .append(cell(k.bounds()))
          .append(" | ")
          .append(k.runtime() ? "runtime" : "submit")
          .append(" | ")
          .append(cell(figures))
          .append(" | ")
          .append(k.lever().equals(k.key()) ? "" : k.lever())
          .append(" | ")
          .append(cell(k.description()))
          .append(" |\n");
    }
    return b.toString();
  }

  private static String value(Threshold t, double v) {
    if (t.unit() == Unit.BYTES && v >= 1024 && v == Math.rint(v)) {
      return Sizes.plain(v) + " (" + Sizes.human(v) + ")";
    }
    return Sizes.plain(v);
  }

  private static String cell(String s) {
    return s.replace("|", "\\|").replace("\n", " ");
  }
}
