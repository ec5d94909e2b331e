-- Sluice history store, ClickHouse schema, version 2: tuner-service's control state.
-- Applied after V1 by the same migration (schema_version); every statement is idempotent.
-- Every table is a ReplacingMergeTree and every read uses FINAL, so a row written twice (a retried call) counts
-- once and reads are correct before background merges. Versions are microseconds since the epoch, made strictly
-- increasing within one tuner-service process, so the last write of a key wins.

-- The decision log: decisions taken about a job's runs (kept, rolled back, reopened), one row per
-- (job, run, kind, conf key); a decision is never changed, so a replay replaces a row by an identical one.
CREATE TABLE IF NOT EXISTS tuner_decisions (
  job_key      String,
  run_key      String,
  run_start    Int64,
  kind         LowCardinality(String),
  conf_key     String,
  direction    String,
  conf_value   String,
  reason       String,
  evidence     String,
  decided_at   Int64
) ENGINE = ReplacingMergeTree
ORDER BY (job_key, run_key, kind, conf_key);

-- Operator freezes: one visible row per job, the one with the greatest version.
CREATE TABLE IF NOT EXISTS tuner_jobs (
  job_key      String,
  frozen       UInt8,
  updated_at   Int64,
  version      UInt64
) ENGINE = ReplacingMergeTree(version)
ORDER BY job_key;

-- The push-tier rollout: the whole rule set (rules and deny entries, JSON of io.sluice.tuner.tier.RuleSet) as one
-- row per rule-set version; the visible row is the newest. One row per change keeps every save atomic.
CREATE TABLE IF NOT EXISTS tier_rule_sets (
  slot         UInt8,
  version      UInt64,
  saved_at     Int64,
  rule_set     String
) ENGINE = ReplacingMergeTree(version)
ORDER BY slot;

-- The rule audit trail, one row per rule-set version (a retried save replaces its own entry).
CREATE TABLE IF NOT EXISTS tier_audit (
  version      UInt64,
  at           Int64,
  actor        String,
  action       LowCardinality(String),
  item_id      String,
  before_json  Nullable(String),
  after_json   Nullable(String)
) ENGINE = ReplacingMergeTree
ORDER BY version;

-- Tier decisions per job, newest read first (seq: the writer's increasing version).
CREATE TABLE IF NOT EXISTS tier_decisions (
  job_key      String,
  seq          UInt64,
  decided_at   Int64,
  json         String CODEC(ZSTD(3)),
  tier         LowCardinality(String) DEFAULT '',
  queue        String DEFAULT '',
  outcome      LowCardinality(String) DEFAULT ''
) ENGINE = ReplacingMergeTree
ORDER BY (job_key, seq);

-- Push-tier outcomes: each attempt of a routed run (JSON of io.sluice.tuner.tier.outcome.RunOutcome), the newest
-- version per (run_key, attempt) visible.
CREATE TABLE IF NOT EXISTS tier_runs (
  run_key      String,
  attempt      Int32,
  first_at     Int64,
  updated_at   Int64,
  version      UInt64,
  json         String CODEC(ZSTD(3))
) ENGINE = ReplacingMergeTree(version)
ORDER BY (run_key, attempt);

-- One row per count (routed, ran, fell_back, failed, succeeded). An attempt counts each outcome at most once, so
-- (run_key, attempt, outcome) identifies a count: a save retried after a failure counts nothing twice. The events
-- are written before their attempt's row. They are kept (the all-time totals are counted from them).
CREATE TABLE IF NOT EXISTS tier_outcome_events (
  run_key      String,
  attempt      Int32,
  outcome      LowCardinality(String),
  at           Int64,
  tier         LowCardinality(String),
  queue        String,
  reason       String
) ENGINE = ReplacingMergeTree
ORDER BY (run_key, attempt, outcome);

-- Alerts raised (JSON of io.sluice.tuner.tier.outcome.TierAlert); an update (its delivery) is a newer version.
CREATE TABLE IF NOT EXISTS tier_alerts (
  seq          UInt64,
  version      UInt64,
  raised_at    Int64,
  tier         LowCardinality(String),
  queue        String,
  kind         LowCardinality(String),
  json         String
) ENGINE = ReplacingMergeTree(version)
ORDER BY seq;
