package io.sluice.rules;

import io.sluice.config.Catalogue;
import io.sluice.config.Setting;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Configuration of the rules, from flat keys:
 *
 * <ul>
 *   <li>{@code sluice.rules.<RULE_ID>.<threshold>=<number>} overrides a declared threshold (see
 *       docs/rules.md);
 *   <li>{@code sluice.rules.<RULE_ID>.enabled=false} disables a rule.
 * </ul>
 *
 * Parsing here only checks the key shape; the {@link RuleEngine} validates ids, threshold names and
 * values against the declarations and fails fast naming the key and the value.
 */
public final class RuleConfig {
  public static final String PREFIX = "sluice.rules.";
  public static final String ENABLED = "enabled";
  private static final Pattern KEY =
      Pattern.compile(Pattern.quote(PREFIX) + "([A-Z][A-Z0-9_]*)\\.(.+)");
  private static final RuleConfig EMPTY = new RuleConfig(Map.of());

  /**
   * The key of a rule's setting: {@code sluice.rules.<RULE_ID>.<name>}, the one place the form is
   * written.
   */
  public static String key(String ruleId, String name) {
    return PREFIX + ruleId + "." + name;
  }

  /** The setting that turns a rule off. */
  public static Setting<Boolean> enabledSetting(String ruleId) {
    return Setting.ofBoolean(key(ruleId, ENABLED), true, "false turns the rule off.");
  }

  /**
   * Every rule's settings ({@code enabled} and its thresholds) as the configuration reference lists
   * them; what each threshold measures is in {@code docs/rules.md}, generated from the same
   * declarations.
   */
  public static Catalogue catalogue(List<Rule> rules) {
    List<Setting<?>> all = new ArrayList<>();
    for (Rule r : rules) {
      all.add(enabledSetting(r.id()));
      r.thresholds().forEach(t -> all.add(t.setting(r.id())));
    }
    return new Catalogue(
        "Diagnosis rules",
        "Flat keys `"
            + PREFIX
            + "<RULE_ID>.<threshold>` in the properties "
            + "file given to `sluice diagnose --rules-config FILE`, the Flink job's and the tuner-service's "
            + "configuration. What each rule detects and how its thresholds grade it: [rules.md](rules.md).",
        all);
  }

  /** rule id to (setting name to raw value). */
  private final Map<String, Map<String, String>> byRule;

  private RuleConfig(Map<String, Map<String, String>> byRule) {
    this.byRule = byRule;
  }

  public static RuleConfig empty() {
    return EMPTY;
  }

  /**
   * Every key must be a rule key ({@code sluice.rules.<RULE_ID>.<name>}).
   *
   * @throws IllegalArgumentException naming the first malformed key and its value
   */
  public static RuleConfig of(Map<String, String> entries) {
    Map<String, Map<String, String>> byRule = new TreeMap<>();
    for (Map.Entry<String, String> e : new TreeMap<>(entries).entrySet()) {
      Matcher m = KEY.matcher(e.getKey().trim());
      if (!m.matches()) {
        throw new IllegalArgumentException(
            "unknown rule configuration key "
                + e.getKey()
                + "="
                + e.getValue()
                + "; keys are "
                + PREFIX
                + "<RULE_ID>.<threshold> or "
                + PREFIX
                + "<RULE_ID>."
                + ENABLED);
      }
      byRule
          .computeIfAbsent(m.group(1), k -> new TreeMap<>())
          .put(m.group(2), e.getValue() == null ? "" : e.getValue().trim());
    }
    Map<String, Map<String, String>> frozen = new LinkedHashMap<>();
    byRule.forEach((k, v) -> frozen.put(k, Collections.unmodifiableMap(v)));
    return new RuleConfig(Collections.unmodifiableMap(frozen));
  }

  /** The {@code sluice.rules.*} keys of a larger configuration (other keys are ignored). */
  public static RuleConfig fromPrefixed(Map<String, String> conf) {
    Map<String, String> mine = new TreeMap<>();
    conf.forEach(
        (k, v) -> {
          if (k.startsWith(PREFIX)) {
            mine.put(k, v);
          }
        });
    return of(mine);
  }

  /** A properties file's entries; every key must be a rule key. */
  public static RuleConfig of(Properties props) {
    Map<String, String> m = new TreeMap<>();
    for (String k : props.stringPropertyNames()) {
      m.put(k, props.getProperty(k));
    }
    return of(m);
  }

  /** The part of this configuration about the given rules. */
  public RuleConfig only(java.util.Collection<String> ids) {
    Map<String, Map<String, String>> kept = new LinkedHashMap<>();
    byRule.forEach(
        (k, v) -> {
          if (ids.contains(k)) {
            kept.put(k, v);
          }
        });
    return new RuleConfig(Collections.unmodifiableMap(kept));
  }

  /** Rule ids mentioned by the configuration. */
  public java.util.Set<String> ruleIds() {
    return byRule.keySet();
  }

  /** The threshold overrides of a rule (without {@code enabled}). */
  public Map<String, String> overrides(String ruleId) {
    Map<String, String> m = new TreeMap<>(byRule.getOrDefault(ruleId, Map.of()));
    m.remove(ENABLED);
    return m;
  }

  /**
   * Whether a rule is enabled (default true).
   *
   * @throws IllegalArgumentException if the value is neither true nor false
   */
  public boolean enabled(String ruleId) {
    String v = byRule.getOrDefault(ruleId, Map.of()).get(ENABLED);
    if (v == null) {
      return true;
    }
    return enabledSetting(ruleId).parse(v);
  }

  @Override
  public String toString() {
    return "RuleConfig" + byRule;
  }
}
