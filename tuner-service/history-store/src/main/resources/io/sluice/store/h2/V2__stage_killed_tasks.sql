-- Sluice history store, embedded (H2) schema, version 2: killed tasks are counted apart from failed ones
-- (Spark's numKilledTasks). Rows written before it read 0.
ALTER TABLE stage_profiles ADD COLUMN killed_tasks BIGINT DEFAULT 0 NOT NULL;
