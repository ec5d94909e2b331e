-- Sluice history store, embedded (H2) schema, version 5: the input bytes a stage's successful tasks read (above 0
-- for file scans). Rows written before it read 0.
ALTER TABLE stage_profiles ADD COLUMN input_bytes_read BIGINT DEFAULT 0 NOT NULL;
