package io.sluice.store;

import java.util.List;

/**
 * How each table of the single-node schema is laid out on a ClickHouse cluster: its sharding key,
 * its time partitions and retention, the skipping indexes only the cluster needs, and why. Columns,
 * engines and sort keys are not declared here: they come from the migrations ({@link
 * SingleNodeSchema}), so the cluster DDL that {@link ClusterDdlWriter} renders from both never
 * drifts from what the store creates. A table the migrations create must have exactly one entry.
 */
final class ClusterLayout {

  /** Partitions by a time column (milliseconds since the epoch) and the rows' retention. */
  record TimePartitions(String column, boolean daily, int retentionDays) {

    String partitionBy() {
      return (daily ? "toYYYYMMDD" : "toYYYYMM") + "(" + time() + ")";
    }

    /** Rows whose time is 0 (unknown) never expire. */
    String ttl() {
      return time() + " + INTERVAL " + retentionDays + " DAY WHERE " + column + " > 0";
    }

    private String time() {
      return "toDateTime(intDiv(" + column + ", 1000))";
    }
  }

  /**
   * One table's cluster settings; {@code partitions} is null for a table without partitions or
   * retention, {@code shardBy} is the Distributed table's sharding expression.
   */
  record ClusterTable(
      String name,
      String shardBy,
      TimePartitions partitions,
      List<String> extraIndexes,
      String why) {}

  private static final String RUN = "cityHash64(cluster, app_id)";
  private static final String JOB = "cityHash64(job_key)";
  private static final String ONE_SHARD = "0";

  /** The tables of the history store and tuner-service's control state, in no required order. */
  static final List<ClusterTable> TABLES =
      List.of(
          new ClusterTable(
              "app_runs",
              RUN,
              new TimePartitions("start_time", false, 400),
              List.of("INDEX app_runs_start start_time TYPE minmax GRANULARITY 4"),
              "one row per run version. Sort key = the store's run key (a run's versions must share"
                  + " it to replace each other, and a run may move to another job, so job_key stays"
                  + " out of it); the job's runs are found through the bloom filter on job_key and"
                  + " pruned by month through start_time. Sharded by run, so every version of a run"
                  + " and its stage rows sit on one shard (FINAL and the stage query's IN are then"
                  + " shard-local)."),
          new ClusterTable(
              "stage_profiles",
              RUN,
              new TimePartitions("submission_time", false, 400),
              List.of(),
              "one row per stage attempt and run version, read by run key (the sort key's"
                  + " prefix). Same shard as its run. Partitioned by the stage's submission month:"
                  + " every version of a stage attempt carries the same submission time, so FINAL"
                  + " still sees all of them in one partition."),
          new ClusterTable(
              "job_summaries",
              JOB,
              null,
              List.of(),
              "one row per job, read by job_key; small (one row per recurring job): no"
                  + " partitions, no TTL."),
          new ClusterTable("job_states", JOB, null, List.of(), "tuning state per job; small."),
          new ClusterTable(
              "gate_events",
              "cityHash64(cluster, node)",
              new TimePartitions("at", true, 30),
              List.of(),
              "the ESS gates' events, by far the most rows (thousands of nodes): daily partitions,"
                  + " 30 days kept, read by cluster, node and time (the sort key's prefix)."),
          new ClusterTable(
              "tuner_decisions",
              JOB,
              null,
              List.of(),
              "the policy's decisions per job and run, read by job_key."),
          new ClusterTable("tuner_jobs", JOB, null, List.of(), "operator freezes per job."),
          new ClusterTable(
              "tier_rule_sets",
              ONE_SHARD,
              null,
              List.of(),
              "the rule sets: a few rows; one shard (sharding key 0) keeps reads of the newest"
                  + " version simple."),
          new ClusterTable(
              "tier_audit",
              ONE_SHARD,
              null,
              List.of(),
              "one entry per rule-set version; one shard."),
          new ClusterTable(
              "tier_decisions", JOB, null, List.of(), "push-tier decisions per job, newest first."),
          new ClusterTable(
              "tier_runs", "cityHash64(run_key)", null, List.of(), "push-tier outcomes per run."),
          new ClusterTable(
              "tier_outcome_events",
              "cityHash64(run_key)",
              null,
              List.of(),
              "push-tier outcome events per run."),
          new ClusterTable(
              "tier_alerts", ONE_SHARD, null, List.of(), "push-tier alerts; one shard."),
          new ClusterTable(
              "sluice_audit",
              ONE_SHARD,
              null,
              List.of(),
              "operator and admin actions, appended, read newest first; one shard."));

  private ClusterLayout() {}
}
