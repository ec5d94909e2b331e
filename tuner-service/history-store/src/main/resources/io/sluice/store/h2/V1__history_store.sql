-- Sluice history store, embedded (H2) schema, version 1.
-- app_runs: one row per run (cluster, app_id, app_attempt_id), the latest version only; run_json is the
-- full AppRun as written by io.sluice.model.Json and is what reads return. The other columns are for SQL.
CREATE TABLE app_runs (
  cluster          VARCHAR(256)  NOT NULL,
  app_id           VARCHAR(256)  NOT NULL,
  app_attempt_id   VARCHAR(64)   NOT NULL,
  job_key          VARCHAR(1024),
  name             VARCHAR(4096),
  user_name        VARCHAR(256),
  queue            VARCHAR(256),
  priority         INTEGER,
  start_time       BIGINT        NOT NULL,
  end_time         BIGINT        NOT NULL,
  status           VARCHAR(32),
  spark_version    VARCHAR(64),
  stage_count      INTEGER       NOT NULL,
  diagnosis_count  INTEGER       NOT NULL,
  updated_at       BIGINT        NOT NULL,
  run_json         CHARACTER LARGE OBJECT NOT NULL,
  CONSTRAINT app_runs_pk PRIMARY KEY (cluster, app_id, app_attempt_id)
);
CREATE INDEX app_runs_by_job ON app_runs (job_key, start_time DESC, app_id DESC);
CREATE INDEX app_runs_by_start ON app_runs (start_time DESC, app_id DESC);

-- stage_profiles: one row per stage attempt of the latest version of each run; one typed column per
-- StageProfile field (snake_case); the profile's appId is the key column app_id.
CREATE TABLE stage_profiles (
  cluster                       VARCHAR(256)  NOT NULL,
  app_id                        VARCHAR(256)  NOT NULL,
  app_attempt_id                VARCHAR(64)   NOT NULL,
  stage_id                      INTEGER       NOT NULL,
  stage_attempt_id              INTEGER       NOT NULL,
  name                          VARCHAR(4096) NOT NULL,
  num_tasks                     INTEGER       NOT NULL,
  successful_tasks              BIGINT        NOT NULL,
  failed_tasks                  BIGINT        NOT NULL,
  fetch_failed_tasks            BIGINT        NOT NULL,
  shuffle_write_bytes           BIGINT        NOT NULL,
  shuffle_write_records         BIGINT        NOT NULL,
  shuffle_remote_bytes_read     BIGINT        NOT NULL,
  shuffle_local_bytes_read      BIGINT        NOT NULL,
  shuffle_remote_blocks_fetched BIGINT        NOT NULL,
  shuffle_local_blocks_fetched  BIGINT        NOT NULL,
  shuffle_fetch_wait_ms         BIGINT        NOT NULL,
  shuffle_records_read          BIGINT        NOT NULL,
  memory_bytes_spilled          BIGINT        NOT NULL,
  disk_bytes_spilled            BIGINT        NOT NULL,
  executor_run_time_ms          BIGINT        NOT NULL,
  task_duration_max_ms          BIGINT        NOT NULL,
  avg_remote_block_bytes        DOUBLE PRECISION NOT NULL,
  fetch_wait_share              DOUBLE PRECISION NOT NULL,
  read_skew                     DOUBLE PRECISION NOT NULL,
  map_partitions                INTEGER       NOT NULL,
  reduce_partitions             INTEGER       NOT NULL,
  shuffle_write_time_ms         BIGINT        NOT NULL,
  submission_time               BIGINT        NOT NULL,
  completion_time               BIGINT        NOT NULL,
  shuffle_read_bytes_max        BIGINT        NOT NULL,
  shuffle_read_bytes_median     BIGINT        NOT NULL,
  CONSTRAINT stage_profiles_pk PRIMARY KEY (cluster, app_id, app_attempt_id, stage_id, stage_attempt_id),
  CONSTRAINT stage_profiles_run_fk FOREIGN KEY (cluster, app_id, app_attempt_id)
    REFERENCES app_runs (cluster, app_id, app_attempt_id) ON DELETE CASCADE
);
