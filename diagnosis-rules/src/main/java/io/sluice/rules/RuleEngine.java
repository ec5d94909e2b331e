package io.sluice.rules;

import io.sluice.model.AppRun;
import io.sluice.model.Diagnosis;
import io.sluice.model.Recommendation;
import io.sluice.model.Severity;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs every registered {@link Rule} over a run. A rule that throws is logged and counted; the
 * others still run. A recommendation outside the {@link AllowList} (unknown key, or value out of
 * the key's bounds) is dropped, logged and counted; the rest of that diagnosis is kept. Duplicate
 * or malformed rule ids, and a {@link RuleConfig} that names an unknown rule or threshold or an
 * invalid value, fail fast at construction naming the known ones.
 */
public final class RuleEngine {
  private static final Logger LOG = LoggerFactory.getLogger(RuleEngine.class);
  private static final Pattern ID = Pattern.compile("[A-Z][A-Z0-9_]*");

  /**
   * Configured rules by id, in registration order (disabled ones included, see {@link #enabled}).
   */
  private final Map<String, Rule> rules;

  private final Map<String, Boolean> enabled;
  private final List<String> ruleOrder;
  private final RuleConfig config;
  private final AllowList allowList = AllowList.defaults();
  private final AtomicLong failures = new AtomicLong();
  private final AtomicLong rejectedRecommendations = new AtomicLong();

  /** All given rules at their declared defaults. */
  public RuleEngine(Collection<? extends Rule> rules) {
    this(rules, RuleConfig.empty());
  }

  /**
   * The given rules configured by {@code config}.
   *
   * @throws IllegalArgumentException on a malformed or duplicate id, or a config entry for an
   *     unknown rule, an unknown threshold, a value that does not parse or is out of range (each
   *     message names key and value)
   */
  public RuleEngine(Collection<? extends Rule> rules, RuleConfig config) {
    Map<String, Rule> byId = new LinkedHashMap<>();
    for (Rule rule : rules) {
      String id = rule.id();
      if (id == null || !ID.matcher(id).matches()) {
        throw new IllegalArgumentException(
            "rule "
                + rule.getClass().getName()
                + " has id '"
                + id
                + "'; ids are upper-snake names such as SHUFFLE_SMALL_BLOCKS");
      }
      Rule previous = byId.putIfAbsent(id, rule);
      if (previous != null) {
        throw new IllegalArgumentException(
            "duplicate rule id "
                + id
                + ": "
                + previous.getClass().getName()
                + " and "
                + rule.getClass().getName()
                + "; known rules: "
                + byId.keySet());
      }
    }
    for (String id : config.ruleIds()) {
      if (!byId.containsKey(id)) {
        throw new IllegalArgumentException(
            "unknown rule id "
                + id
                + " in configuration "
                + RuleConfig.PREFIX
                + id
                + ".*; known rules: "
                + List.copyOf(byId.keySet()));
      }
    }
    Map<String, Rule> configured = new LinkedHashMap<>();
    Map<String, Boolean> on = new LinkedHashMap<>();
    for (Map.Entry<String, Rule> e : byId.entrySet()) {
      Rule rule = e.getValue();
      RuleSettings settings =
          RuleSettings.of(e.getKey(), rule.thresholds(), config.overrides(e.getKey()));
      Rule bound = rule.withSettings(settings);
      if (bound == null || !e.getKey().equals(bound.id())) {
        throw new IllegalArgumentException(
            "rule "
                + e.getKey()
                + " ("
                + rule.getClass().getName()
                + ") returned "
                + (bound == null ? "null" : "a rule with id " + bound.id())
                + " from withSettings");
      }
      configured.put(e.getKey(), bound);
      on.put(e.getKey(), config.enabled(e.getKey()));
    }
    this.rules = java.util.Collections.unmodifiableMap(configured);
    this.enabled = java.util.Collections.unmodifiableMap(on);
    this.ruleOrder =
        on.entrySet().stream().filter(Map.Entry::getValue).map(Map.Entry::getKey).toList();
    this.config = config;
  }

  /** All rules on the class path of the given loader (META-INF/services/io.sluice.rules.Rule). */
  public static RuleEngine loadFrom(ClassLoader loader) {
    return loadFrom(loader, RuleConfig.empty());
  }

  public static RuleEngine loadFrom(ClassLoader loader, RuleConfig config) {
    List<Rule> found = new ArrayList<>();
    ServiceLoader.load(Rule.class, loader).forEach(found::add);
    return new RuleEngine(found, config);
  }

  public static RuleEngine loadDefault() {
    return loadDefault(RuleConfig.empty());
  }

  public static RuleEngine loadDefault(RuleConfig config) {
    return loadFrom(RuleEngine.class.getClassLoader(), config);
  }

  /**
   * Keeps only the named rules (with their configuration); an unknown id fails fast and lists the
   * known ones.
   */
  public RuleEngine select(Collection<String> ids) {
    List<Rule> chosen = new ArrayList<>();
    for (String id : ids) {
      Rule r = rules.get(id);
      if (r == null) {
        throw new IllegalArgumentException(
            "unknown rule id " + id + "; known rules: " + List.copyOf(rules.keySet()));
      }
      chosen.add(r);
    }
    return new RuleEngine(chosen, config.only(ids));
  }

  /** Ids of the enabled rules, in registration order. */
  public List<String> ruleIds() {
    return ruleOrder;
  }

  /** Every registered rule, configured, enabled or not, in registration order. */
  public List<Rule> rules() {
    return List.copyOf(rules.values());
  }

  public boolean enabled(String ruleId) {
    return enabled.getOrDefault(ruleId, false);
  }

  public RuleConfig config() {
    return config;
  }

  /**
   * Diagnoses above {@link Severity#NONE} of the enabled rules, in rule registration order, with
   * every recommendation checked against the {@link AllowList}.
   */
  public List<Diagnosis> diagnose(AppRun run) {
    List<Diagnosis> out = new ArrayList<>();
    for (String id : ruleOrder) {
      Rule rule = rules.get(id);
      try {
        Diagnosis d = rule.evaluate(run);
        if (d != null && d.severity() != Severity.NONE) {
          if (!id.equals(d.ruleId())) {
            throw new IllegalStateException(
                "rule " + id + " returned a diagnosis for " + d.ruleId());
          }
          out.add(allowed(d, run));
        }
      } catch (RuntimeException | LinkageError e) {
        failures.incrementAndGet();
        LOG.warn("rule {} failed on {}: {}", id, run.runKey(), e.toString());
      }
    }
    return out;
  }

  private Diagnosis allowed(Diagnosis d, AppRun run) {
    List<Recommendation> kept = new ArrayList<>();
    List<io.sluice.model.StageProfile> diagnosed =
        d.stageIds().isEmpty()
            ? run.stages()
            : run.stages().stream().filter(s -> d.stageIds().contains(s.stageId())).toList();
    for (Recommendation r : d.recommendations()) {
      Optional<String> why =
          allowList
              .check(r)
              .or(
                  () ->
                      diagnosed.isEmpty() ? Optional.empty() : allowList.outOfScope(r, diagnosed));
      if (why.isPresent()) {
        rejectedRecommendations.incrementAndGet();
        LOG.warn("rule {} on {}: recommendation rejected: {}", d.ruleId(), run.runKey(), why.get());
      } else {
        kept.add(r);
      }
    }
    if (kept.size() == d.recommendations().size()) {
      return d;
    }
    return new Diagnosis(d.ruleId(), d.severity(), d.stageIds(), d.summary(), d.evidence(), kept);
  }

  /** Rule evaluations that threw, since construction. */
  public long failures() {
    return failures.get();
  }

  /**
   * Recommendations dropped because they were not on the allow-list, out of bounds, or for stages
   * their key does not act on, since construction.
   */
  public long rejectedRecommendations() {
    return rejectedRecommendations.get();
  }
}
