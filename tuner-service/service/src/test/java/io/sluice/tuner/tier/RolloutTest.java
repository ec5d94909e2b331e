package io.sluice.tuner.tier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.contracts.Tier;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class RolloutTest {
  static RolloutRule rule(
      String id, String cluster, String queue, String job, Tier tier, double percent) {
    return new RolloutRule(id, new Scope(cluster, queue, job), tier, percent, "");
  }

  static final RuleSet LAYERED =
      new RuleSet(
          1,
          List.of(
              rule("all", null, null, null, Tier.CELEBORN, 100),
              rule("prod", "prod", null, null, Tier.SPARK_PUSH, 100),
              rule("etl", null, "root.etl", null, Tier.UNIFFLE, 100),
              rule("prod-etl", "prod", "root.etl", null, Tier.CELEBORN, 100),
              rule("nightly", null, null, "nightly", Tier.ESS, 100),
              rule("nightly-dev", "dev", null, "nightly", Tier.UNIFFLE, 100)),
          List.of());

  @Test
  void theMostSpecificRuleDecidesJobThenQueueThenCluster() {
    assertThat(Rollout.decide(LAYERED, new JobRef("dev", "root.adhoc", "j")).ruleId())
        .isEqualTo("all");
    assertThat(Rollout.decide(LAYERED, new JobRef("prod", "root.adhoc", "j")).ruleId())
        .isEqualTo("prod");
    // a queue rule beats a cluster rule
    RolloutVerdict etlDev = Rollout.decide(LAYERED, new JobRef("dev", "root.etl", "j"));
    assertThat(etlDev.ruleId()).isEqualTo("etl");
    assertThat(etlDev.tier()).isEqualTo(Tier.UNIFFLE);
    // cluster + queue beats queue alone
    assertThat(Rollout.decide(LAYERED, new JobRef("prod", "root.etl", "j")).ruleId())
        .isEqualTo("prod-etl");
    // a job rule beats cluster + queue; tier ESS opts the job out
    RolloutVerdict nightly = Rollout.decide(LAYERED, new JobRef("prod", "root.etl", "nightly"));
    assertThat(nightly.ruleId()).isEqualTo("nightly");
    assertThat(nightly.tier()).isEqualTo(Tier.ESS);
    assertThat(nightly.reason())
        .isEqualTo("rule nightly (cluster=* queue=* job=nightly) keeps the job on ESS");
    // job + cluster beats job alone
    assertThat(Rollout.decide(LAYERED, new JobRef("dev", "root.etl", "nightly")).ruleId())
        .isEqualTo("nightly-dev");
  }

  @Test
  void noMatchingRuleMeansEss() {
    RuleSet s =
        new RuleSet(1, List.of(rule("prod", "prod", null, null, Tier.CELEBORN, 100)), List.of());
    RolloutVerdict v = Rollout.decide(s, new JobRef("dev", "q", "j"));
    assertThat(v.tier()).isEqualTo(Tier.ESS);
    assertThat(v.ruleId()).isNull();
    assertThat(v.reason()).isEqualTo("no rollout rule matches");
  }

  @Test
  void theDenyListBeatsEveryRule() {
    RuleSet s =
        LAYERED
            .withDeny(new DenyEntry("no-finance", new Scope(null, "root.finance", null), "audit"))
            .withRule(rule("fin-job", null, "root.finance", "payroll", Tier.CELEBORN, 100));
    RolloutVerdict v = Rollout.decide(s, new JobRef("prod", "root.finance", "payroll"));
    assertThat(v.tier()).isEqualTo(Tier.ESS);
    assertThat(v.denyId()).isEqualTo("no-finance");
    assertThat(v.ruleId()).isNull();
    assertThat(v.reason())
        .isEqualTo("denied by no-finance (cluster=* queue=root.finance job=*: audit)");
    assertThat(Rollout.decide(s, new JobRef("prod", "root.other", "payroll")).denyId()).isNull();
  }

  @Test
  void percentagesAreDeterministicAndOnlyGrow() {
    List<String> jobs = IntStream.range(0, 2_000).mapToObj(i -> "job-" + i).toList();
    Set<String> at0 = in(jobs, 0);
    Set<String> at20 = in(jobs, 20);
    Set<String> at50 = in(jobs, 50);
    Set<String> at100 = in(jobs, 100);
    assertThat(at0).isEmpty();
    assertThat(at100).hasSize(2_000);
    assertThat(at50).containsAll(at20);
    // about the share asked for (SHA-256 buckets are uniform; these bounds are 3+ standard
    // deviations wide)
    assertThat(at20).hasSizeBetween(340, 460);
    assertThat(at50).hasSizeBetween(930, 1_070);
    assertThat(in(jobs, 20)).isEqualTo(at20);
  }

  @Test
  void aJobOutsideThePercentageStaysOnEssAndTheReasonGivesItsBucket() {
    RuleSet s = new RuleSet(1, List.of(rule("r", null, "q", null, Tier.CELEBORN, 30)), List.of());
    String out =
        IntStream.range(0, 100)
            .mapToObj(i -> "job-" + i)
            .filter(j -> Buckets.of("r", j) >= 30)
            .findFirst()
            .orElseThrow();
    RolloutVerdict v = Rollout.decide(s, new JobRef("c", "q", out));
    assertThat(v.tier()).isEqualTo(Tier.ESS);
    assertThat(v.ruleId()).isEqualTo("r");
    assertThat(v.reason())
        .startsWith("rule r (cluster=* queue=q job=*) rolls CELEBORN out to 30.00 %; job bucket ")
        .endsWith(" is outside it");
  }

  @Test
  void bucketsDependOnTheRuleIdAndStayInRange() {
    List<String> jobs = IntStream.range(0, 1_000).mapToObj(i -> "job-" + i).toList();
    Set<String> a =
        jobs.stream().filter(j -> Buckets.in("rule-a", j, 50)).collect(Collectors.toSet());
    Set<String> b =
        jobs.stream().filter(j -> Buckets.in("rule-b", j, 50)).collect(Collectors.toSet());
    assertThat(a).isNotEqualTo(b);
    assertThat(jobs)
        .allSatisfy(j -> assertThat(Buckets.of("r", j)).isGreaterThanOrEqualTo(0).isLessThan(100));
    assertThat(Buckets.of("r", "job-1")).isEqualTo(Buckets.of("r", "job-1"));
  }

  @Test
  void ruleSetsRejectBadInputNamingTheField() {
    assertThatThrownBy(
            () ->
                new RuleSet(
                    1,
                    List.of(
                        rule("a", "c", "q", null, Tier.CELEBORN, 10),
                        rule("b", "c", "q", "", Tier.UNIFFLE, 10)),
                    List.of()))
        .isInstanceOfSatisfying(
            InvalidTierInput.class, e -> assertThat(e.field()).isEqualTo("scope"))
        .hasMessage("rules a and b have the same scope (cluster=c queue=q job=*)");
    assertThatThrownBy(() -> RuleSet.validRule(rule("a", null, null, null, Tier.CELEBORN, 100.5)))
        .isInstanceOfSatisfying(
            InvalidTierInput.class, e -> assertThat(e.field()).isEqualTo("percent"));
    assertThatThrownBy(() -> RuleSet.validRule(rule("a b", null, null, null, Tier.CELEBORN, 1)))
        .isInstanceOfSatisfying(InvalidTierInput.class, e -> assertThat(e.field()).isEqualTo("id"));
    assertThatThrownBy(() -> RuleSet.validRule(rule("a", null, null, null, null, 1)))
        .isInstanceOfSatisfying(
            InvalidTierInput.class, e -> assertThat(e.field()).isEqualTo("tier"));
  }

  @Test
  void aStarOrBlankScopeFieldMatchesAnything() {
    Scope s = new Scope("*", " ", "j");
    assertThat(s.cluster()).isNull();
    assertThat(s.queue()).isNull();
    assertThat(s.matches(new JobRef("any", "", "j"))).isTrue();
    assertThat(s.matches(new JobRef("any", "", "k"))).isFalse();
  }

  private static Set<String> in(List<String> jobs, double percent) {
    RuleSet s =
        new RuleSet(1, List.of(rule("grow", null, "q", null, Tier.CELEBORN, percent)), List.of());
    return jobs.stream()
        .filter(j -> Rollout.decide(s, new JobRef("c", "q", j)).tier() == Tier.CELEBORN)
        .collect(Collectors.toSet());
  }
}
