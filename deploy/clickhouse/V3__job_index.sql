-- Sluice history store, ClickHouse schema: the job index (V3). Every statement is idempotent.

-- One row per recurring job and refresh; ReplacingMergeTree keeps the newest (updated_at is a write clock in
-- microseconds). The store re-derives a job's row on every upsert that touches the job, from its oldest and newest
-- stored runs; a job left without runs gets a row with runs = 0, which reads skip. baseline_* are the oldest stored
-- run's figures when that run carried no Sluice change, else NULL.
CREATE TABLE IF NOT EXISTS job_summaries (
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
) ENGINE = ReplacingMergeTree(updated_at)
ORDER BY job_key;

-- The tuning state tuner-service last derived for a job and whether an operator froze it.
CREATE TABLE IF NOT EXISTS job_states (
  job_key    String,
  state      LowCardinality(String),
  frozen     UInt8,
  updated_at Int64
) ENGINE = ReplacingMergeTree(updated_at)
ORDER BY job_key;
