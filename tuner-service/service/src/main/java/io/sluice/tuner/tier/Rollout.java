package io.sluice.tuner.tier;

import io.sluice.contracts.Tier;
import java.util.Locale;

/**
 * The rollout decision, pure. In order:
 *
 * <ol>
 *   <li>any matching deny entry → ESS (the deny list beats every rule);
 *   <li>otherwise the most specific matching rule ({@link Scope#specificity()}: job key &gt; queue
 *       &gt; cluster; scopes are unique, so it is one rule) decides alone — a less specific rule is
 *       never consulted, so a job rule of tier ESS opts a job out of its queue's rollout;
 *   <li>its tier is granted when the job's bucket ({@link Buckets}) is below the rule's percent,
 *       else ESS;
 *   <li>no matching rule → ESS.
 * </ol>
 */
public final class Rollout {
  private Rollout() {}

  public static RolloutVerdict decide(RuleSet rules, JobRef job) {
    for (DenyEntry d : rules.denies()) {
      if (d.scope().matches(job)) {
        return new RolloutVerdict(
            Tier.ESS,
            null,
            d.id(),
            Double.NaN,
            "denied by "
                + d.id()
                + " ("
                + d.scope().describe()
                + (d.reason().isBlank() ? "" : ": " + d.reason())
                + ")");
      }
    }
    RolloutRule best = null;
    for (RolloutRule r : rules.rules()) {
      if (r.scope().matches(job)
          && (best == null || r.scope().specificity() > best.scope().specificity())) {
        best = r;
      }
    }
    if (best == null) {
      return new RolloutVerdict(Tier.ESS, null, null, Double.NaN, "no rollout rule matches");
    }
    String which = "rule " + best.id() + " (" + best.scope().describe() + ")";
    if (best.tier() == Tier.ESS) {
      return new RolloutVerdict(
          Tier.ESS, best.id(), null, Double.NaN, which + " keeps the job on ESS");
    }
    double bucket = Buckets.of(best.id(), job.jobKey());
    if (Buckets.in(best.id(), job.jobKey(), best.percent())) {
      return new RolloutVerdict(
          best.tier(),
          best.id(),
          null,
          bucket,
          which
              + " rolls "
              + best.tier()
              + " out to "
              + pct(best.percent())
              + "; job bucket "
              + pct(bucket));
    }
    return new RolloutVerdict(
        Tier.ESS,
        best.id(),
        null,
        bucket,
        which
            + " rolls "
            + best.tier()
            + " out to "
            + pct(best.percent())
            + "; job bucket "
            + pct(bucket)
            + " is outside it");
  }

  static String pct(double p) {
    return String.format(Locale.ROOT, "%.2f %%", p);
  }
}
