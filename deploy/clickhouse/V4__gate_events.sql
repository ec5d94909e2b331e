-- Sluice history store, ClickHouse schema: the ESS gates' events (V4; Kafka topic sluice.throttle-events).
-- Every statement is idempotent. One row per event, keyed by what it says and the Kafka record it came in (partition,
-- offset): a replayed record collapses into one row (reads use FINAL). event_json is the whole event, also for types
-- this version does not know; the other columns are for SQL (NULL where the type has no such field).
CREATE TABLE IF NOT EXISTS gate_events (
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
) ENGINE = ReplacingMergeTree
ORDER BY (cluster, node, at, type, app_id, src_partition, src_offset);
