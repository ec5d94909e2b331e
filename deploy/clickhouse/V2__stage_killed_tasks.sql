-- Sluice history store, ClickHouse schema, version 2: killed tasks are counted apart from failed ones
-- (Spark's numKilledTasks). Rows written before it read 0. Idempotent.
ALTER TABLE stage_profiles ADD COLUMN IF NOT EXISTS killed_tasks Int64 DEFAULT 0;
