package io.sluice.tuner.tier;

import io.sluice.contracts.Tier;
import jakarta.validation.Valid;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/**
 * Every {@code sluice.tier.*} property (push-tier rollout, admission and overlays, docs/push-tier.md) with its default.
 * Sizes take units ({@code 500GB}); admission limits are checked again by {@link AdmissionPolicy} and the initial
 * rules by {@link RuleSet} (both fail start-up naming the value).
 */
@ConfigurationProperties("sluice.tier")
@Validated
public class TierProperties {
  /** False: no tier decisions at all (every job stays on the ESS, nothing is added). Default true. */
  private boolean enabled = true;

  /** How many of a job's newest runs its shuffle volume (p90 of per-run peak stage shuffle write) is taken over. */
  @Min(1)
  @Max(200)
  private int historyRuns = 10;

  /**
   * Time limit of the job-history read behind one push-tier admission (a second store read on the submission path,
   * after which the tuning read still has {@code sluice.tuner.submission-timeout}); past it the job stays on the ESS.
   * Default 50ms.
   */
  @NotNull
  private Duration historyTimeout = Duration.ofMillis(50);

  /** How often the tiers' metrics endpoints are scraped. Default 15s. */
  @NotNull
  private Duration metricsRefresh = Duration.ofSeconds(15);

  /** Metrics older than this are stale: configuration is used instead (and the reason says so). Default 60s. */
  @NotNull
  private Duration metricsMaxAge = Duration.ofSeconds(60);

  /** Connect and read time limit of one scrape. Default 2s. */
  @NotNull
  private Duration metricsTimeout = Duration.ofSeconds(2);

  /** Per cluster (the submission's {@code cluster}): what the overlays need to know. Unlisted clusters: all false. */
  @Valid
  private Map<String, Cluster> clusters = new LinkedHashMap<>();

  /** Spark's push-based shuffle (capacity = the merge managers' disk on the ESS nodes). */
  @Valid
  private TierSettings sparkPush = new TierSettings();

  /** Apache Celeborn. */
  @Valid
  private Celeborn celeborn = new Celeborn();

  /** Apache Uniffle. */
  @Valid
  private Uniffle uniffle = new Uniffle();

  /** What every push overlay puts on the Spark class paths. */
  @Valid
  private Overlay overlay = new Overlay();

  /**
   * Initial rollout rules, written to the store once when it has no rules yet (audited as actor
   * {@code configuration}); after that the API owns the rules and this list is ignored. Default empty.
   */
  @Valid
  private List<Rule> rules = new ArrayList<>();

  /** Initial deny entries, seeded with {@link #rules}. Default empty. */
  @Valid
  private List<Deny> denies = new ArrayList<>();

  /** A cluster's facts. */
  public static class Cluster {
    /** The cluster is YARN. Default false. */
    private boolean yarn;

    /**
     * Its NodeManagers' Spark shuffle service runs the push merge manager
     * ({@code spark.shuffle.push.server.mergedShuffleFileManagerImpl=...RemoteBlockPushResolver}). Default false.
     */
    private boolean pushMergeOnEss;

    public boolean isYarn() {
      return yarn;
    }

    public void setYarn(boolean yarn) {
      this.yarn = yarn;
    }

    public boolean isPushMergeOnEss() {
      return pushMergeOnEss;
    }

    public void setPushMergeOnEss(boolean pushMergeOnEss) {
      this.pushMergeOnEss = pushMergeOnEss;
    }
  }

  /** The push overlays' class path entries (Spark 3.5 creates the ShuffleManager before it fetches spark.jars). */
  public static class Overlay {
    /**
     * Path of the shaded {@code sluice-fallback-manager} jar on the cluster's nodes (the same on driver and executor
     * hosts); the overlays put it on {@code spark.driver.extraClassPath} and {@code spark.executor.extraClassPath},
     * prepended to a user's own value. Default empty: not configured, every push tier is refused with that reason.
     */
    private String managerJar = "";

    public String getManagerJar() {
      return managerJar;
    }

    public void setManagerJar(String managerJar) {
      this.managerJar = managerJar;
    }
  }

  /** Capacity, health and admission limits of one push tier. */
  public static class TierSettings {
    /** Free shuffle capacity when no (fresh) metrics say otherwise. Default 0 (nothing fits). */
    @NotNull
    private DataSize freeCapacity = DataSize.ofBytes(0);

    /** Total shuffle capacity, for reasons and the API. Default 0 (unknown). */
    @NotNull
    private DataSize totalCapacity = DataSize.ofBytes(0);

    /** False: the tier takes no new jobs (beats metrics). Default true. */
    private boolean healthy = true;

    /** A job whose p90 peak stage shuffle write exceeds this is refused; 0 = no cap. Default 0. */
    @NotNull
    private DataSize perJobCap = DataSize.ofBytes(0);

    /** A job may take at most this share of the tier's free capacity, (0, 1]. Default 0.5. */
    @DecimalMin(value = "0", inclusive = false)
    @DecimalMax("1")
    private double maxFreeShare = 0.5;

    /** Jobs without history: REFUSE (default) or ADMIT_IF_ROOM. */
    @NotNull
    private AdmissionPolicy.UnknownJobs unknownJobs = AdmissionPolicy.UnknownJobs.REFUSE;

    /** ADMIT_IF_ROOM: the tier needs at least this much free. Default 0. */
    @NotNull
    private DataSize unknownMinFree = DataSize.ofBytes(0);

    /** ADMIT_IF_ROOM: this percent of unknown jobs (by job-key bucket) are admitted, 0..100. Default 0. */
    @DecimalMin("0")
    @DecimalMax("100")
    private double unknownPercent = 0;

    /**
     * The tier's Prometheus text endpoint for free capacity and health (e.g. a Celeborn master's
     * {@code http://host:9098/metrics/prometheus}); empty = configuration only. Default empty.
     */
    private String metricsUrl = "";

    /** Metric summed for free bytes. Default Celeborn master's {@code metrics_DeviceCelebornFreeBytes_Value}. */
    private String freeMetric = PrometheusTierMetrics.Names.celebornMaster().free();

    /** Metric summed for total bytes. Default {@code metrics_DeviceCelebornTotalBytes_Value}. */
    private String totalMetric = PrometheusTierMetrics.Names.celebornMaster().total();

    /** Worker count (health: workers - excluded > 0 when present). Default {@code metrics_WorkerCount_Value}. */
    private String workersMetric = PrometheusTierMetrics.Names.celebornMaster().workers();

    /** Excluded worker count. Default {@code metrics_ExcludedWorkerCount_Value}. */
    private String excludedMetric = PrometheusTierMetrics.Names.celebornMaster().excluded();

    public AdmissionPolicy admissionPolicy() {
      return new AdmissionPolicy(perJobCap.toBytes(), maxFreeShare, unknownJobs, unknownMinFree.toBytes(),
          unknownPercent);
    }

    public DataSize getFreeCapacity() {
      return freeCapacity;
    }

    public void setFreeCapacity(DataSize freeCapacity) {
      this.freeCapacity = freeCapacity;
    }

    public DataSize getTotalCapacity() {
      return totalCapacity;
    }

    public void setTotalCapacity(DataSize totalCapacity) {
      this.totalCapacity = totalCapacity;
    }

    public boolean isHealthy() {
      return healthy;
    }

    public void setHealthy(boolean healthy) {
      this.healthy = healthy;
    }

    public DataSize getPerJobCap() {
      return perJobCap;
    }

    public void setPerJobCap(DataSize perJobCap) {
      this.perJobCap = perJobCap;
    }

    public double getMaxFreeShare() {
      return maxFreeShare;
    }

    public void setMaxFreeShare(double maxFreeShare) {
      this.maxFreeShare = maxFreeShare;
    }

    public AdmissionPolicy.UnknownJobs getUnknownJobs() {
      return unknownJobs;
    }

    public void setUnknownJobs(AdmissionPolicy.UnknownJobs unknownJobs) {
      this.unknownJobs = unknownJobs;
    }

    public DataSize getUnknownMinFree() {
      return unknownMinFree;
    }

    public void setUnknownMinFree(DataSize unknownMinFree) {
      this.unknownMinFree = unknownMinFree;
    }

    public double getUnknownPercent() {
      return unknownPercent;
    }

    public void setUnknownPercent(double unknownPercent) {
      this.unknownPercent = unknownPercent;
    }

    public String getMetricsUrl() {
      return metricsUrl;
    }

    public void setMetricsUrl(String metricsUrl) {
      this.metricsUrl = metricsUrl;
    }

    public String getFreeMetric() {
      return freeMetric;
    }

    public void setFreeMetric(String freeMetric) {
      this.freeMetric = freeMetric;
    }

    public String getTotalMetric() {
      return totalMetric;
    }

    public void setTotalMetric(String totalMetric) {
      this.totalMetric = totalMetric;
    }

    public String getWorkersMetric() {
      return workersMetric;
    }

    public void setWorkersMetric(String workersMetric) {
      this.workersMetric = workersMetric;
    }

    public String getExcludedMetric() {
      return excludedMetric;
    }

    public void setExcludedMetric(String excludedMetric) {
      this.excludedMetric = excludedMetric;
    }
  }

  /** Celeborn: a tier plus its client settings. */
  public static class Celeborn extends TierSettings {
    /** {@code spark.celeborn.master.endpoints}, {@code host:port[,host:port]}. Empty: Celeborn is refused. */
    private String masterEndpoints = "";

    /** {@code spark.celeborn.client.spark.shuffle.fallback.policy}: AUTO (default), ALWAYS or NEVER. */
    @jakarta.validation.constraints.Pattern(regexp = "(?i)AUTO|ALWAYS|NEVER")
    private String fallbackPolicy = "AUTO";

    /**
     * Path of Celeborn's Spark client jar on the nodes, put on both class paths after the manager jar. Default
     * empty: it is in the nodes' {@code $SPARK_HOME/jars} (if not, the driver falls back: TIER_MANAGER_UNLOADABLE).
     */
    private String clientJar = "";

    public String getClientJar() {
      return clientJar;
    }

    public void setClientJar(String clientJar) {
      this.clientJar = clientJar;
    }

    public String getMasterEndpoints() {
      return masterEndpoints;
    }

    public void setMasterEndpoints(String masterEndpoints) {
      this.masterEndpoints = masterEndpoints;
    }

    public String getFallbackPolicy() {
      return fallbackPolicy;
    }

    public void setFallbackPolicy(String fallbackPolicy) {
      this.fallbackPolicy = fallbackPolicy;
    }
  }

  /** Uniffle: a tier plus its client settings. */
  public static class Uniffle extends TierSettings {
    /** {@code spark.rss.coordinator.quorum}, {@code host:port[,host:port]}. Empty: Uniffle is refused. */
    private String coordinatorQuorum = "";

    /**
     * Path of Uniffle's Spark client jar on the nodes, put on both class paths after the manager jar. Default
     * empty: it is in the nodes' {@code $SPARK_HOME/jars} (if not, the driver falls back: TIER_MANAGER_UNLOADABLE).
     */
    private String clientJar = "";

    public String getClientJar() {
      return clientJar;
    }

    public void setClientJar(String clientJar) {
      this.clientJar = clientJar;
    }

    public String getCoordinatorQuorum() {
      return coordinatorQuorum;
    }

    public void setCoordinatorQuorum(String coordinatorQuorum) {
      this.coordinatorQuorum = coordinatorQuorum;
    }
  }

  /** An initial rollout rule ({@link RolloutRule}); blank or {@code *} scope fields match anything. */
  public static class Rule {
    private String id;
    private String cluster;
    private String queue;
    private String jobKey;
    private Tier tier;
    /** Default 100. */
    private double percent = 100;
    private String note = "";

    RolloutRule toRule() {
      return new RolloutRule(id, new Scope(cluster, queue, jobKey), tier, percent, note);
    }

    public String getId() {
      return id;
    }

    public void setId(String id) {
      this.id = id;
    }

    public String getCluster() {
      return cluster;
    }

    public void setCluster(String cluster) {
      this.cluster = cluster;
    }

    public String getQueue() {
      return queue;
    }

    public void setQueue(String queue) {
      this.queue = queue;
    }

    public String getJobKey() {
      return jobKey;
    }

    public void setJobKey(String jobKey) {
      this.jobKey = jobKey;
    }

    public Tier getTier() {
      return tier;
    }

    public void setTier(Tier tier) {
      this.tier = tier;
    }

    public double getPercent() {
      return percent;
    }

    public void setPercent(double percent) {
      this.percent = percent;
    }

    public String getNote() {
      return note;
    }

    public void setNote(String note) {
      this.note = note;
    }
  }

  /** An initial deny entry ({@link DenyEntry}). */
  public static class Deny {
    private String id;
    private String cluster;
    private String queue;
    private String jobKey;
    private String reason = "";

    DenyEntry toDeny() {
      return new DenyEntry(id, new Scope(cluster, queue, jobKey), reason);
    }

    public String getId() {
      return id;
    }

    public void setId(String id) {
      this.id = id;
    }

    public String getCluster() {
      return cluster;
    }

    public void setCluster(String cluster) {
      this.cluster = cluster;
    }

    public String getQueue() {
      return queue;
    }

    public void setQueue(String queue) {
      this.queue = queue;
    }

    public String getJobKey() {
      return jobKey;
    }

    public void setJobKey(String jobKey) {
      this.jobKey = jobKey;
    }

    public String getReason() {
      return reason;
    }

    public void setReason(String reason) {
      this.reason = reason;
    }
  }

  /** The initial rule set (version 1) from {@link #rules} and {@link #denies}; invalid entries fail naming them. */
  public RuleSet initialRules() {
    return new RuleSet(1, rules.stream().map(Rule::toRule).toList(), denies.stream().map(Deny::toDeny).toList());
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

  public boolean isEnabled() {
    return enabled;
  }

  public void setEnabled(boolean enabled) {
    this.enabled = enabled;
  }

  public int getHistoryRuns() {
    return historyRuns;
  }

  public void setHistoryRuns(int historyRuns) {
    this.historyRuns = historyRuns;
  }

  public Duration getHistoryTimeout() {
    return historyTimeout;
  }

  public void setHistoryTimeout(Duration historyTimeout) {
    this.historyTimeout = historyTimeout;
  }

  public Duration getMetricsRefresh() {
    return metricsRefresh;
  }

  public void setMetricsRefresh(Duration metricsRefresh) {
    this.metricsRefresh = metricsRefresh;
  }

  public Duration getMetricsMaxAge() {
    return metricsMaxAge;
  }

  public void setMetricsMaxAge(Duration metricsMaxAge) {
    this.metricsMaxAge = metricsMaxAge;
  }

  public Duration getMetricsTimeout() {
    return metricsTimeout;
  }

  public void setMetricsTimeout(Duration metricsTimeout) {
    this.metricsTimeout = metricsTimeout;
  }

  public Map<String, Cluster> getClusters() {
    return clusters;
  }

  public void setClusters(Map<String, Cluster> clusters) {
    this.clusters = clusters;
  }

  public TierSettings getSparkPush() {
    return sparkPush;
  }

  public void setSparkPush(TierSettings sparkPush) {
    this.sparkPush = sparkPush;
  }

  public Celeborn getCeleborn() {
    return celeborn;
  }

  public void setCeleborn(Celeborn celeborn) {
    this.celeborn = celeborn;
  }

  public Uniffle getUniffle() {
    return uniffle;
  }

  public void setUniffle(Uniffle uniffle) {
    this.uniffle = uniffle;
  }

  public Overlay getOverlay() {
    return overlay;
  }

  public void setOverlay(Overlay overlay) {
    this.overlay = overlay;
  }

  public List<Rule> getRules() {
    return rules;
  }

  public void setRules(List<Rule> rules) {
    this.rules = rules;
  }

  public List<Deny> getDenies() {
    return denies;
  }

  public void setDenies(List<Deny> denies) {
    this.denies = denies;
  }
}
