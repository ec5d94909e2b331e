package io.sluice.tuner.tier;

import io.sluice.contracts.Tier;
import jakarta.validation.Valid;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/**
 * Every {@code sluice.tier.*} property (push-tier rollout, admission and overlays,
 * docs/push-tier.md), bound once at start-up and immutable. Sizes take units ({@code 500GB}),
 * durations too ({@code 50ms}); admission limits are checked again by {@link AdmissionPolicy} and
 * the initial rules by {@link RuleSet} (both fail start-up naming the value).
 *
 * @param enabled false: no tier decisions at all (every job stays on the ESS, nothing is added)
 * @param historyRuns how many of a job's newest runs its shuffle volume (p90 of per-run peak stage
 *     shuffle write) is taken over
 * @param historyTimeout time limit of the job-history read behind one push-tier admission when the
 *     submission's own read of the job's runs does not cover history-runs (then a second store
 *     read) and behind the API's preview; past it the job stays on the ESS
 * @param metricsRefresh how often the tiers' metrics endpoints are scraped
 * @param metricsMaxAge metrics older than this are stale: configuration is used instead (and the
 *     reason says so)
 * @param metricsTimeout connect and read time limit of one scrape
 * @param clusters per cluster (the submission's cluster): what the overlays need to know; unlisted
 *     clusters: all false
 * @param sparkPush Spark's push-based shuffle (capacity = the merge managers' disk on the ESS
 *     nodes)
 * @param celeborn Apache Celeborn
 * @param uniffle Apache Uniffle
 * @param overlay what every push overlay puts on the Spark class paths
 * @param rules initial rollout rules, written to the store once when it has no rules yet (audited
 *     as actor configuration); after that the API owns the rules and this list is ignored
 * @param denies initial deny entries, seeded with the rules
 */
@ConfigurationProperties("sluice.tier")
@Validated
public record TierProperties(
    @DefaultValue("true") boolean enabled,
    @DefaultValue("10") @Min(1) @Max(200) int historyRuns,
    @DefaultValue("50ms") @NotNull Duration historyTimeout,
    @DefaultValue("15s") @NotNull Duration metricsRefresh,
    @DefaultValue("60s") @NotNull Duration metricsMaxAge,
    @DefaultValue("2s") @NotNull Duration metricsTimeout,
    @DefaultValue @Valid Map<String, Cluster> clusters,
    @DefaultValue @Valid TierSettings sparkPush,
    @DefaultValue @Valid TierSettings celeborn,
    @DefaultValue @Valid TierSettings uniffle,
    @DefaultValue @Valid Overlay overlay,
    @DefaultValue @Valid List<Rule> rules,
    @DefaultValue @Valid List<Deny> denies) {

  public TierProperties {
    clusters = Map.copyOf(clusters);
    rules = List.copyOf(rules);
    denies = List.copyOf(denies);
    sparkPush.refuseClientSettings("spark-push", true, true);
    celeborn.refuseClientSettings("celeborn", false, true);
    uniffle.refuseClientSettings("uniffle", true, false);
  }

  /**
   * A cluster's facts.
   *
   * @param yarn the cluster is YARN
   * @param pushMergeOnEss its NodeManagers' Spark shuffle service runs the push merge manager
   *     (spark.shuffle.push.server.mergedShuffleFileManagerImpl=...RemoteBlockPushResolver)
   */
  public record Cluster(boolean yarn, boolean pushMergeOnEss) {}

  /**
   * The push overlays' class path entries (Spark 3.5 creates the ShuffleManager before it fetches
   * spark.jars).
   *
   * @param managerJar path of the shaded sluice-fallback-manager jar on the cluster's nodes (the
   *     same on driver and executor hosts); the overlays put it on spark.driver.extraClassPath and
   *     spark.executor.extraClassPath, prepended to a user's own value; empty: not configured,
   *     every push tier is refused with that reason
   */
  public record Overlay(@DefaultValue("") String managerJar) {}

  /**
   * Capacity, health and admission limits of one push tier, and the client settings of the tiers
   * that have them.
   *
   * @param freeCapacity free shuffle capacity when no (fresh) metrics say otherwise (0: nothing
   *     fits)
   * @param totalCapacity total shuffle capacity, for reasons and the API (0: unknown)
   * @param healthy false: the tier takes no new jobs (beats metrics)
   * @param perJobCap a job whose p90 peak stage shuffle write exceeds this is refused; 0 = no cap
   * @param maxFreeShare a job may take at most this share of the tier's free capacity, (0, 1]
   * @param unknownJobs jobs without history: REFUSE or ADMIT_IF_ROOM
   * @param unknownMinFree ADMIT_IF_ROOM: the tier needs at least this much free
   * @param unknownPercent ADMIT_IF_ROOM: this percent of unknown jobs (by job-key bucket) are
   *     admitted, 0..100
   * @param metricsUrl the tier's Prometheus text endpoint for free capacity and health (e.g. a
   *     Celeborn master's http://host:9098/metrics/prometheus); empty = configuration only
   * @param freeMetric metric summed for free bytes (the default is a Celeborn master's)
   * @param totalMetric metric summed for total bytes
   * @param workersMetric worker count (health: workers - excluded > 0 when present)
   * @param excludedMetric excluded worker count
   * @param masterEndpoints Celeborn only: spark.celeborn.master.endpoints, host:port[,host:port];
   *     empty: Celeborn is refused
   * @param fallbackPolicy Celeborn only: spark.celeborn.client.spark.shuffle.fallback.policy, AUTO,
   *     ALWAYS or NEVER
   * @param coordinatorQuorum Uniffle only: spark.rss.coordinator.quorum, host:port[,host:port];
   *     empty: Uniffle is refused
   * @param clientJar Celeborn and Uniffle: path of the tier's Spark client jar on the nodes, put on
   *     both class paths after the manager jar; empty: it is in the nodes' $SPARK_HOME/jars (if
   *     not, the driver falls back: TIER_MANAGER_UNLOADABLE)
   */
  public record TierSettings(
      @DefaultValue("0B") @NotNull DataSize freeCapacity,
      @DefaultValue("0B") @NotNull DataSize totalCapacity,
      @DefaultValue("true") boolean healthy,
      @DefaultValue("0B") @NotNull DataSize perJobCap,
      @DefaultValue("0.5") @DecimalMin(value = "0", inclusive = false) @DecimalMax("1")
          double maxFreeShare,
      @DefaultValue("REFUSE") @NotNull AdmissionPolicy.UnknownJobs unknownJobs,
      @DefaultValue("0B") @NotNull DataSize unknownMinFree,
      @DefaultValue("0") @DecimalMin("0") @DecimalMax("100") double unknownPercent,
      @DefaultValue("") String metricsUrl,
      @DefaultValue(PrometheusTierMetrics.CELEBORN_FREE) String freeMetric,
      @DefaultValue(PrometheusTierMetrics.CELEBORN_TOTAL) String totalMetric,
      @DefaultValue(PrometheusTierMetrics.CELEBORN_WORKERS) String workersMetric,
      @DefaultValue(PrometheusTierMetrics.CELEBORN_EXCLUDED) String excludedMetric,
      @DefaultValue("") String masterEndpoints,
      @DefaultValue("AUTO") @Pattern(regexp = "(?i)AUTO|ALWAYS|NEVER") String fallbackPolicy,
      @DefaultValue("") String coordinatorQuorum,
      @DefaultValue("") String clientJar) {

    public AdmissionPolicy admissionPolicy() {
      return new AdmissionPolicy(
          perJobCap.toBytes(), maxFreeShare, unknownJobs, unknownMinFree.toBytes(), unknownPercent);
    }

    /** Fails naming the key when a tier is given a client setting it has no use for. */
    void refuseClientSettings(String tier, boolean celebornKeys, boolean uniffleKeys) {
      String prefix = "sluice.tier." + tier + ".";
      if (celebornKeys && !masterEndpoints.isEmpty()) {
        throw new IllegalArgumentException(prefix + "master-endpoints is a Celeborn setting");
      }
      if (celebornKeys && !fallbackPolicy.equalsIgnoreCase("AUTO")) {
        throw new IllegalArgumentException(prefix + "fallback-policy is a Celeborn setting");
      }
      if (uniffleKeys && !coordinatorQuorum.isEmpty()) {
        throw new IllegalArgumentException(prefix + "coordinator-quorum is a Uniffle setting");
      }
      if (celebornKeys && uniffleKeys && !clientJar.isEmpty()) {
        throw new IllegalArgumentException(prefix + "client-jar is a Celeborn and Uniffle setting");
      }
    }
  }

  /**
   * An initial rollout rule ({@link RolloutRule}); blank or {@code *} scope fields match anything.
   *
   * @param id the rule's id
   * @param cluster the cluster it applies to
   * @param queue the queue it applies to
   * @param jobKey the job it applies to
   * @param tier the tier the scope may use
   * @param percent the share of the scope's jobs (by job-key bucket) that may use it
   * @param note a note for operators
   */
  public record Rule(
      String id,
      String cluster,
      String queue,
      String jobKey,
      Tier tier,
      @DefaultValue("100") double percent,
      @DefaultValue("") String note) {
    RolloutRule toRule() {
      return new RolloutRule(id, new Scope(cluster, queue, jobKey), tier, percent, note);
    }
  }

  /**
   * An initial deny entry ({@link DenyEntry}).
   *
   * @param id the entry's id
   * @param cluster the cluster it applies to
   * @param queue the queue it applies to
   * @param jobKey the job it applies to
   * @param reason why the scope stays on the ESS
   */
  public record Deny(
      String id, String cluster, String queue, String jobKey, @DefaultValue("") String reason) {
    DenyEntry toDeny() {
      return new DenyEntry(id, new Scope(cluster, queue, jobKey), reason);
    }
  }

  /**
   * The initial rule set (version 1) from {@link #rules} and {@link #denies}; invalid entries fail
   * naming them.
   */
  public RuleSet initialRules() {
    return new RuleSet(
        1, rules.stream().map(Rule::toRule).toList(), denies.stream().map(Deny::toDeny).toList());
  }

  /** The settings of a push tier. */
  public TierSettings tier(Tier tier) {
    return switch (tier) {
      case SPARK_PUSH -> sparkPush;
      case CELEBORN -> celeborn;
      case UNIFFLE -> uniffle;
      case ESS -> throw new IllegalArgumentException("ESS has no tier settings");
    };
  }
}
