package io.sluice.tuner.tier;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The rollout rules and deny entries in force, immutable; every change makes a new set (a higher
 * {@code version}). Invariants, checked by {@link #validRule}/{@link #validDeny} and the
 * constructor: ids are {@code [A-Za-z0-9._-]{1,64}} and unique within their list, percent is
 * 0..100, and no two rules have the same scope (so the most specific matching rule is always
 * unique).
 */
public record RuleSet(long version, List<RolloutRule> rules, List<DenyEntry> denies) {
  private static final Pattern ID = Pattern.compile("[A-Za-z0-9._-]{1,64}");
  static final int MAX_FIELD = 1024;

  public RuleSet {
    rules = List.copyOf(rules.stream().sorted(Comparator.comparing(RolloutRule::id)).toList());
    denies = List.copyOf(denies.stream().sorted(Comparator.comparing(DenyEntry::id)).toList());
    for (int i = 0; i < rules.size(); i++) {
      validRule(rules.get(i));
      for (int j = i + 1; j < rules.size(); j++) {
        if (rules.get(i).id().equals(rules.get(j).id())) {
          throw new InvalidTierInput("id", "two rules have the id " + rules.get(i).id());
        }
        if (rules.get(i).scope().sameAs(rules.get(j).scope())) {
          throw new InvalidTierInput(
              "scope",
              "rules "
                  + rules.get(i).id()
                  + " and "
                  + rules.get(j).id()
                  + " have the same scope ("
                  + rules.get(i).scope().describe()
                  + ")");
        }
      }
    }
    for (int i = 0; i < denies.size(); i++) {
      validDeny(denies.get(i));
      for (int j = i + 1; j < denies.size(); j++) {
        if (denies.get(i).id().equals(denies.get(j).id())) {
          throw new InvalidTierInput("id", "two deny entries have the id " + denies.get(i).id());
        }
      }
    }
  }

  public static RuleSet empty() {
    return new RuleSet(0, List.of(), List.of());
  }

  public static void validRule(RolloutRule r) {
    validId(r.id());
    if (r.scope() == null) {
      throw new InvalidTierInput("scope", "a rule needs a scope");
    }
    validScope(r.scope());
    if (r.tier() == null) {
      throw new InvalidTierInput(
          "tier", "tier is required: one of ESS, SPARK_PUSH, CELEBORN, UNIFFLE");
    }
    if (Double.isNaN(r.percent()) || r.percent() < 0 || r.percent() > 100) {
      throw new InvalidTierInput("percent", "percent must be in 0..100, was " + r.percent());
    }
    if (r.note().length() > MAX_FIELD) {
      throw new InvalidTierInput("note", "note is longer than " + MAX_FIELD + " characters");
    }
  }

  public static void validDeny(DenyEntry d) {
    validId(d.id());
    if (d.scope() == null) {
      throw new InvalidTierInput("scope", "a deny entry needs a scope");
    }
    validScope(d.scope());
    if (d.reason().length() > MAX_FIELD) {
      throw new InvalidTierInput("reason", "reason is longer than " + MAX_FIELD + " characters");
    }
  }

  private static void validId(String id) {
    if (id == null || !ID.matcher(id).matches()) {
      throw new InvalidTierInput("id", "id must match [A-Za-z0-9._-]{1,64}, was " + id);
    }
  }

  private static void validScope(Scope s) {
    check("cluster", s.cluster());
    check("queue", s.queue());
    check("jobKey", s.jobKey());
  }

  private static void check(String field, String v) {
    if (v != null && v.length() > MAX_FIELD) {
      throw new InvalidTierInput(field, field + " is longer than " + MAX_FIELD + " characters");
    }
  }

  public RolloutRule rule(String id) {
    return rules.stream().filter(r -> r.id().equals(id)).findFirst().orElse(null);
  }

  public DenyEntry deny(String id) {
    return denies.stream().filter(d -> d.id().equals(id)).findFirst().orElse(null);
  }

  /** This set with {@code rule} added or replacing the rule of the same id. */
  public RuleSet withRule(RolloutRule rule) {
    List<RolloutRule> next =
        new ArrayList<>(rules.stream().filter(r -> !r.id().equals(rule.id())).toList());
    next.add(rule);
    return new RuleSet(version + 1, next, denies);
  }

  public RuleSet withoutRule(String id) {
    return new RuleSet(
        version + 1, rules.stream().filter(r -> !r.id().equals(id)).toList(), denies);
  }

  public RuleSet withDeny(DenyEntry deny) {
    List<DenyEntry> next =
        new ArrayList<>(denies.stream().filter(d -> !d.id().equals(deny.id())).toList());
    next.add(deny);
    return new RuleSet(version + 1, rules, next);
  }

  public RuleSet withoutDeny(String id) {
    return new RuleSet(
        version + 1, rules, denies.stream().filter(d -> !d.id().equals(id)).toList());
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof RuleSet s
        && version == s.version
        && rules.equals(s.rules)
        && denies.equals(s.denies);
  }

  @Override
  public int hashCode() {
    return Objects.hash(version, rules, denies);
  }
}
