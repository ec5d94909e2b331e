-- Sluice history store, ClickHouse schema, version 1.
-- This file is the one source of the ClickHouse DDL: the history-store module packs it into its jar
-- (io/sluice/store/clickhouse/V1__history_store.sql) and runs it on open; operators may run it by hand
-- (clickhouse-client --database sluice --multiquery < V1__history_store.sql). Every statement is idempotent.
-- Reads must be correct before background merges: the store reads with FINAL (see README.md).

-- One row per run version; ReplacingMergeTree keeps the greatest updated_at per run key (of equal ones the
-- last inserted). run_json is the full AppRun (io.sluice.model.Json) and is what the store reads back;
-- the other columns are for SQL. write_id identifies the upsert that wrote the row: the visible stage rows
-- of a run are those written by the same upsert as its visible run row.
CREATE TABLE IF NOT EXISTS app_runs (
  cluster          String,
  app_id           String,
  app_attempt_id   String,
  job_key          String,
  name             String,
  user_name        String,
  queue            String,
  priority         Nullable(Int32),
  start_time       Int64,
  end_time         Int64,
  status           LowCardinality(String),
  spark_version    LowCardinality(String),
  stage_count      UInt32,
  diagnosis_count  UInt32,
  updated_at       Int64,
  write_id         UInt64,
  run_json         String CODEC(ZSTD(3)),
  INDEX app_runs_job_key job_key TYPE bloom_filter GRANULARITY 4
) ENGINE = ReplacingMergeTree(updated_at)
ORDER BY (cluster, app_id, app_attempt_id);

-- One row per stage attempt and run version; one typed column per StageProfile field (snake_case).
-- A stage present in an older version but not in the newest stays stored until replaced, but is never
-- visible: reads keep only rows whose (run key, write_id) is the run's visible one.
CREATE TABLE IF NOT EXISTS stage_profiles (
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
  shuffle_read_bytes_median     Int64
) ENGINE = ReplacingMergeTree(run_updated_at)
ORDER BY (cluster, app_id, app_attempt_id, stage_id, stage_attempt_id);
