-- Sluice history store on a ClickHouse cluster: replicated local tables on every shard and Distributed tables
-- under the names the store uses. Run once, on any node, after the cluster's macros ({cluster}, {shard},
-- {replica}) and Keeper are configured:
--
--   clickhouse-client --query "CREATE DATABASE IF NOT EXISTS sluice ON CLUSTER '{cluster}'"
--   clickhouse-client --database sluice --multiquery < V1__cluster.sql
--
-- Then point tuner-service and the Flink job at any node (or a load balancer) with the database sluice. The store
-- applies its own migrations on open; every table here already has their columns, so they change nothing.
--
-- GENERATED from the single-node migrations (deploy/clickhouse/V*.sql: columns, engines, sort keys) and the
-- cluster layout (tuner-service/history-store, ClusterLayout: sharding, partitions, retention); do not edit.
-- Regenerate after a new migration with:
--   mvn -q -B -pl tuner-service/history-store -am test -Dtest=ClusterDdlFileTest -Dsurefire.failIfNoSpecifiedTests=false -Dsluice.cluster.ddl.write=true
-- ClusterSchemaITCase (tuner-service/history-store) renders this file for one node and runs the store's
-- contract suite against it.
--
-- The Sluice user needs these settings (users.xml profile or CREATE SETTINGS PROFILE ... FOR sluice):
--   distributed_product_mode = 'local'      the stage query's IN (SELECT ... FROM app_runs FINAL) runs per shard,
--                                           correct because runs and their stages share a shard
--   distributed_foreground_insert = 1       an upsert is visible to the next read (insert_distributed_sync before 23.x)
--   select_sequential_consistency = 0       (default) reads may go to any replica
-- Retention: app_runs 400 days after start_time, stage_profiles 400 days after submission_time, gate_events 30 days
-- after at; rows whose time is unknown (0) are kept. Change with ALTER TABLE <name>_local ON CLUSTER '{cluster}'
-- MODIFY TTL ...

-- app_runs: one row per run version. Sort key = the store's run key (a run's versions must share it to replace each
-- other, and a run may move to another job, so job_key stays out of it); the job's runs are found through the bloom
-- filter on job_key and pruned by month through start_time. Sharded by run, so every version of a run and its stage
-- rows sit on one shard (FINAL and the stage query's IN are then shard-local).
CREATE TABLE IF NOT EXISTS app_runs_local ON CLUSTER '{cluster}' (
  cluster         String,
  app_id          String,
  app_attempt_id  String,
  job_key         String,
  name            String,
  user_name       String,
  queue           String,
  priority        Nullable(Int32),
  start_time      Int64,
  end_time        Int64,
  status          LowCardinality(String),
  spark_version   LowCardinality(String),
  stage_count     UInt32,
  diagnosis_count UInt32,
  updated_at      Int64,
  write_id        UInt64,
  run_json        String CODEC(ZSTD(3)),
  INDEX app_runs_job_key job_key TYPE bloom_filter GRANULARITY 4,
  INDEX app_runs_start start_time TYPE minmax GRANULARITY 4
) ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/{database}/app_runs', '{replica}', updated_at)
PARTITION BY toYYYYMM(toDateTime(intDiv(start_time, 1000)))
ORDER BY (cluster, app_id, app_attempt_id)
TTL toDateTime(intDiv(start_time, 1000)) + INTERVAL 400 DAY WHERE start_time > 0;
CREATE TABLE IF NOT EXISTS app_runs ON CLUSTER '{cluster}' AS app_runs_local
ENGINE = Distributed('{cluster}', currentDatabase(), 'app_runs_local', cityHash64(cluster, app_id));

-- stage_profiles: one row per stage attempt and run version, read by run key (the sort key's prefix). Same shard as
-- its run. Partitioned by the stage's submission month: every version of a stage attempt carries the same submission
-- time, so FINAL still sees all of them in one partition.
CREATE TABLE IF NOT EXISTS stage_profiles_local ON CLUSTER '{cluster}' (
  cluster                       String,
  app_id                        String,
  app_attempt_id                String,
  stage_id                      Int32,
  stage_attempt_id              Int32,
  run_updated_at                Int64,
  write_id                      UInt64,
  name                          String,
  num_tasks                     Int32,
  successful_tasks              Int64,
  failed_tasks                  Int64,
  fetch_failed_tasks            Int64,
  shuffle_write_bytes           Int64,
  shuffle_write_records         Int64,
  shuffle_remote_bytes_read     Int64,
  shuffle_local_bytes_read      Int64,
  shuffle_remote_blocks_fetched Int64,
  shuffle_local_blocks_fetched  Int64,
  shuffle_fetch_wait_ms         Int64,
  shuffle_records_read          Int64,
  memory_bytes_spilled          Int64,
  disk_bytes_spilled            Int64,
  executor_run_time_ms          Int64,
  task_duration_max_ms          Int64,
  avg_remote_block_bytes        Float64,
  fetch_wait_share              Float64,
  read_skew                     Float64,
  map_partitions                Int32,
  reduce_partitions             Int32,
  shuffle_write_time_ms         Int64,
  submission_time               Int64,
  completion_time               Int64,
  shuffle_read_bytes_max        Int64,
  shuffle_read_bytes_median     Int64,
  killed_tasks                  Int64 DEFAULT 0,
  input_bytes_read              Int64 DEFAULT 0
) ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/{database}/stage_profiles', '{replica}', run_updated_at)
PARTITION BY toYYYYMM(toDateTime(intDiv(submission_time, 1000)))
ORDER BY (cluster, app_id, app_attempt_id, stage_id, stage_attempt_id)
TTL toDateTime(intDiv(submission_time, 1000)) + INTERVAL 400 DAY WHERE submission_time > 0;
CREATE TABLE IF NOT EXISTS stage_profiles ON CLUSTER '{cluster}' AS stage_profiles_local
ENGINE = Distributed('{cluster}', currentDatabase(), 'stage_profiles_local', cityHash64(cluster, app_id));

-- job_summaries: one row per job, read by job_key; small (one row per recurring job): no partitions, no TTL.
CREATE TABLE IF NOT EXISTS job_summaries_local ON CLUSTER '{cluster}' (
  job_key             String,
  cluster             String,
  queue               String,
  user_name           String,
  runs                Int64,
  first_run_at        Int64,
  last_run_at         Int64,
  last_app_id         String,
  last_wall_ms        Int64,
  last_blocked_ms     Int64,
  worst_severity      LowCardinality(String),
  last_changed        UInt8,
  baseline_wall_ms    Nullable(Int64),
  baseline_blocked_ms Nullable(Int64),
  updated_at          Int64
) ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/{database}/job_summaries', '{replica}', updated_at)
ORDER BY job_key;
CREATE TABLE IF NOT EXISTS job_summaries ON CLUSTER '{cluster}' AS job_summaries_local
ENGINE = Distributed('{cluster}', currentDatabase(), 'job_summaries_local', cityHash64(job_key));

-- job_states: tuning state per job; small.
CREATE TABLE IF NOT EXISTS job_states_local ON CLUSTER '{cluster}' (
  job_key    String,
  state      LowCardinality(String),
  frozen     UInt8,
  updated_at Int64
) ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/{database}/job_states', '{replica}', updated_at)
ORDER BY job_key;
CREATE TABLE IF NOT EXISTS job_states ON CLUSTER '{cluster}' AS job_states_local
ENGINE = Distributed('{cluster}', currentDatabase(), 'job_states_local', cityHash64(job_key));

-- gate_events: the ESS gates' events, by far the most rows (thousands of nodes): daily partitions, 30 days kept, read
-- by cluster, node and time (the sort key's prefix).
CREATE TABLE IF NOT EXISTS gate_events_local ON CLUSTER '{cluster}' (
  cluster       String,
  node          String,
  at            Int64,
  type          LowCardinality(String),
  app_id        String,
  src_partition Int32,
  src_offset    Int64,
  priority      Nullable(Int32),
  held_ms       Nullable(Int64),
  sleep_ms      Nullable(Int64),
  to_state      Nullable(String),
  event_json    String CODEC(ZSTD(3))
) ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/{database}/gate_events', '{replica}')
PARTITION BY toYYYYMMDD(toDateTime(intDiv(at, 1000)))
ORDER BY (cluster, node, at, type, app_id, src_partition, src_offset)
TTL toDateTime(intDiv(at, 1000)) + INTERVAL 30 DAY WHERE at > 0;
CREATE TABLE IF NOT EXISTS gate_events ON CLUSTER '{cluster}' AS gate_events_local
ENGINE = Distributed('{cluster}', currentDatabase(), 'gate_events_local', cityHash64(cluster, node));

-- tuner_decisions: the policy's decisions per job and run, read by job_key.
CREATE TABLE IF NOT EXISTS tuner_decisions_local ON CLUSTER '{cluster}' (
  job_key    String,
  run_key    String,
  run_start  Int64,
  kind       LowCardinality(String),
  conf_key   String,
  direction  String,
  conf_value String,
  reason     String,
  evidence   String,
  decided_at Int64
) ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/{database}/tuner_decisions', '{replica}')
ORDER BY (job_key, run_key, kind, conf_key);
CREATE TABLE IF NOT EXISTS tuner_decisions ON CLUSTER '{cluster}' AS tuner_decisions_local
ENGINE = Distributed('{cluster}', currentDatabase(), 'tuner_decisions_local', cityHash64(job_key));

-- tuner_jobs: operator freezes per job.
CREATE TABLE IF NOT EXISTS tuner_jobs_local ON CLUSTER '{cluster}' (
  job_key    String,
  frozen     UInt8,
  updated_at Int64,
  version    UInt64
) ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/{database}/tuner_jobs', '{replica}', version)
ORDER BY job_key;
CREATE TABLE IF NOT EXISTS tuner_jobs ON CLUSTER '{cluster}' AS tuner_jobs_local
ENGINE = Distributed('{cluster}', currentDatabase(), 'tuner_jobs_local', cityHash64(job_key));

-- tier_rule_sets: the rule sets: a few rows; one shard (sharding key 0) keeps reads of the newest version simple.
CREATE TABLE IF NOT EXISTS tier_rule_sets_local ON CLUSTER '{cluster}' (
  slot     UInt8,
  version  UInt64,
  saved_at Int64,
  rule_set String
) ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/{database}/tier_rule_sets', '{replica}', version)
ORDER BY slot;
CREATE TABLE IF NOT EXISTS tier_rule_sets ON CLUSTER '{cluster}' AS tier_rule_sets_local
ENGINE = Distributed('{cluster}', currentDatabase(), 'tier_rule_sets_local', 0);

-- tier_audit: one entry per rule-set version; one shard.
CREATE TABLE IF NOT EXISTS tier_audit_local ON CLUSTER '{cluster}' (
  version     UInt64,
  at          Int64,
  actor       String,
  action      LowCardinality(String),
  item_id     String,
  before_json Nullable(String),
  after_json  Nullable(String)
) ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/{database}/tier_audit', '{replica}')
ORDER BY version;
CREATE TABLE IF NOT EXISTS tier_audit ON CLUSTER '{cluster}' AS tier_audit_local
ENGINE = Distributed('{cluster}', currentDatabase(), 'tier_audit_local', 0);

-- tier_decisions: push-tier decisions per job, newest first.
CREATE TABLE IF NOT EXISTS tier_decisions_local ON CLUSTER '{cluster}' (
  job_key    String,
  seq        UInt64,
  decided_at Int64,
  json       String CODEC(ZSTD(3)),
  tier       LowCardinality(String) DEFAULT '',
  queue      String DEFAULT '',
  outcome    LowCardinality(String) DEFAULT ''
) ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/{database}/tier_decisions', '{replica}')
ORDER BY (job_key, seq);
CREATE TABLE IF NOT EXISTS tier_decisions ON CLUSTER '{cluster}' AS tier_decisions_local
ENGINE = Distributed('{cluster}', currentDatabase(), 'tier_decisions_local', cityHash64(job_key));

-- tier_runs: push-tier outcomes per run.
CREATE TABLE IF NOT EXISTS tier_runs_local ON CLUSTER '{cluster}' (
  run_key    String,
  attempt    Int32,
  first_at   Int64,
  updated_at Int64,
  version    UInt64,
  json       String CODEC(ZSTD(3))
) ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/{database}/tier_runs', '{replica}', version)
ORDER BY (run_key, attempt);
CREATE TABLE IF NOT EXISTS tier_runs ON CLUSTER '{cluster}' AS tier_runs_local
ENGINE = Distributed('{cluster}', currentDatabase(), 'tier_runs_local', cityHash64(run_key));

-- tier_outcome_events: push-tier outcome events per run.
CREATE TABLE IF NOT EXISTS tier_outcome_events_local ON CLUSTER '{cluster}' (
  run_key String,
  attempt Int32,
  outcome LowCardinality(String),
  at      Int64,
  tier    LowCardinality(String),
  queue   String,
  reason  String
) ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/{database}/tier_outcome_events', '{replica}')
ORDER BY (run_key, attempt, outcome);
CREATE TABLE IF NOT EXISTS tier_outcome_events ON CLUSTER '{cluster}' AS tier_outcome_events_local
ENGINE = Distributed('{cluster}', currentDatabase(), 'tier_outcome_events_local', cityHash64(run_key));

-- tier_alerts: push-tier alerts; one shard.
CREATE TABLE IF NOT EXISTS tier_alerts_local ON CLUSTER '{cluster}' (
  seq       UInt64,
  version   UInt64,
  raised_at Int64,
  tier      LowCardinality(String),
  queue     String,
  kind      LowCardinality(String),
  json      String
) ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/{database}/tier_alerts', '{replica}', version)
ORDER BY seq;
CREATE TABLE IF NOT EXISTS tier_alerts ON CLUSTER '{cluster}' AS tier_alerts_local
ENGINE = Distributed('{cluster}', currentDatabase(), 'tier_alerts_local', 0);

-- sluice_audit: operator and admin actions, appended, read newest first; one shard.
CREATE TABLE IF NOT EXISTS sluice_audit_local ON CLUSTER '{cluster}' (
  id           String,
  at           Int64,
  actor        String,
  action       String,
  target       String,
  before_state Nullable(String),
  after_state  Nullable(String)
) ENGINE = ReplicatedMergeTree('/clickhouse/tables/{shard}/{database}/sluice_audit', '{replica}')
ORDER BY (at, id);
CREATE TABLE IF NOT EXISTS sluice_audit ON CLUSTER '{cluster}' AS sluice_audit_local
ENGINE = Distributed('{cluster}', currentDatabase(), 'sluice_audit_local', 0);
