package io.sluice.rules;

import io.sluice.model.AppRun;
import io.sluice.model.Diagnosis;
import io.sluice.model.Severity;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs every registered {@link Rule} over a run. A rule that throws is logged and counted; the others still
 * run. Duplicate or malformed rule ids fail fast at construction, naming the known ones.
 */
public final class RuleEngine {
  private static final Logger LOG = LoggerFactory.getLogger(RuleEngine.class);
  private static final Pattern ID = Pattern.compile("[A-Z][A-Z0-9_]*");

  private final Map<String, Rule> rules;
  private final AtomicLong failures = new AtomicLong();

  public RuleEngine(Collection<? extends Rule> rules) {
    Map<String, Rule> byId = new LinkedHashMap<>();
    for (Rule rule : rules) {
      String id = rule.id();
      if (id == null || !ID.matcher(id).matches()) {
        throw new IllegalArgumentException("rule " + rule.getClass().getName() + " has id '" + id
            + "'; ids are upper-snake names such as SHUFFLE_SMALL_BLOCKS");
      }
      Rule previous = byId.putIfAbsent(id, rule);
      if (previous != null) {
        throw new IllegalArgumentException("duplicate rule id " + id + ": " + previous.getClass().getName()
            + " and " + rule.getClass().getName() + "; known rules: " + byId.keySet());
      }
    }
    this.rules = Map.copyOf(byId);
    this.ruleOrder = List.copyOf(byId.keySet());
  }

  private final List<String> ruleOrder;

  /** All rules on the class path of the given loader (META-INF/services/io.sluice.rules.Rule). */
  public static RuleEngine loadFrom(ClassLoader loader) {
    List<Rule> found = new ArrayList<>();
    ServiceLoader.load(Rule.class, loader).forEach(found::add);
    return new RuleEngine(found);
  }

  public static RuleEngine loadDefault() {
    return loadFrom(RuleEngine.class.getClassLoader());
  }

  /** Keeps only the named rules; an unknown id fails fast and lists the known ones. */
  public RuleEngine select(Collection<String> ids) {
    List<Rule> chosen = new ArrayList<>();
    for (String id : ids) {
      Rule r = rules.get(id);
      if (r == null) {
        throw new IllegalArgumentException("unknown rule id " + id + "; known rules: " + ruleOrder);
      }
      chosen.add(r);
    }
    return new RuleEngine(chosen);
  }

  public List<String> ruleIds() {
    return ruleOrder;
  }

  /** Diagnoses above {@link Severity#NONE}, in rule registration order. */
  public List<Diagnosis> diagnose(AppRun run) {
    List<Diagnosis> out = new ArrayList<>();
    for (String id : ruleOrder) {
      Rule rule = rules.get(id);
      try {
        Diagnosis d = rule.evaluate(run);
        if (d != null && d.severity() != Severity.NONE) {
          out.add(d);
        }
      } catch (RuntimeException | LinkageError e) {
        failures.incrementAndGet();
        LOG.warn("rule {} failed on {}: {}", id, run.runKey(), e.toString());
      }
    }
    return out;
  }

  /** Rule evaluations that threw, since construction. */
  public long failures() {
    return failures.get();
  }
}
