-- Sluice history store, embedded (H2) schema: the job index (V3). Every statement is idempotent, so the script
-- may run again on a store that already has these tables.
-- job_summaries: one row per recurring job, re-derived by the store on every upsert that touches the job (from
-- its oldest and newest stored runs), so that job listings filter, sort and page in SQL. baseline_* are the
-- oldest stored run's figures when that run carried no Sluice change, else NULL.
CREATE TABLE IF NOT EXISTS job_summaries (
  job_key             VARCHAR(1024) NOT NULL,
  cluster             VARCHAR(256)  NOT NULL,
  queue               VARCHAR(256)  NOT NULL,
  user_name           VARCHAR(256)  NOT NULL,
  runs                BIGINT        NOT NULL,
  first_run_at        BIGINT        NOT NULL,
  last_run_at         BIGINT        NOT NULL,
  last_app_id         VARCHAR(256)  NOT NULL,
  last_wall_ms        BIGINT        NOT NULL,
  last_blocked_ms     BIGINT        NOT NULL,
  worst_severity      VARCHAR(16)   NOT NULL,
  last_changed        INTEGER       NOT NULL,
  baseline_wall_ms    BIGINT,
  baseline_blocked_ms BIGINT,
  updated_at          BIGINT        NOT NULL,
  CONSTRAINT job_summaries_pk PRIMARY KEY (job_key)
);
CREATE INDEX IF NOT EXISTS job_summaries_by_last_run ON job_summaries (last_run_at DESC, job_key);
CREATE INDEX IF NOT EXISTS job_summaries_by_cluster ON job_summaries (cluster, last_run_at DESC);
CREATE INDEX IF NOT EXISTS job_summaries_by_queue ON job_summaries (queue, last_run_at DESC);
CREATE INDEX IF NOT EXISTS job_summaries_by_user ON job_summaries (user_name, last_run_at DESC);
CREATE INDEX IF NOT EXISTS job_summaries_by_severity ON job_summaries (worst_severity, last_run_at DESC);
CREATE INDEX IF NOT EXISTS job_summaries_by_runs ON job_summaries (runs, job_key);
CREATE INDEX IF NOT EXISTS job_summaries_by_wall ON job_summaries (last_wall_ms, job_key);

-- job_states: the tuning state tuner-service last derived for a job (NEW, TUNING, STABLE, FROZEN, DISABLED) and
-- whether an operator froze it; written by tuner-service, never by run upserts.
CREATE TABLE IF NOT EXISTS job_states (
  job_key    VARCHAR(1024) NOT NULL,
  state      VARCHAR(32)   NOT NULL,
  frozen     INTEGER       NOT NULL,
  updated_at BIGINT        NOT NULL,
  CONSTRAINT job_states_pk PRIMARY KEY (job_key)
);
