-- Sluice history store, ClickHouse schema, version 6: the input bytes a stage's successful tasks read (above 0
-- for file scans). Rows written before it read 0. Idempotent.
ALTER TABLE stage_profiles ADD COLUMN IF NOT EXISTS input_bytes_read Int64 DEFAULT 0;
