-- tuner-service's own tables in the history store's H2 database (created if absent; the history store's
-- schema_version is not touched). The ClickHouse tables are in deploy/clickhouse/V2__tuner_control.sql.
CREATE TABLE IF NOT EXISTS tuner_decisions (
  job_key      VARCHAR(1024) NOT NULL,
  run_key      VARCHAR(1024) NOT NULL,
  run_start    BIGINT        NOT NULL,
  kind         VARCHAR(32)   NOT NULL,   -- KEPT | ROLLED_BACK | REOPENED
  conf_key     VARCHAR(256)  NOT NULL,   -- '' for REOPENED
  direction    VARCHAR(256)  NOT NULL,   -- up | down | =value | ''
  conf_value   VARCHAR(1024) NOT NULL,
  reason       VARCHAR(4096) NOT NULL,
  evidence     VARCHAR(4096) NOT NULL,   -- JSON object of named numbers
  decided_at   BIGINT        NOT NULL,   -- epoch ms
  PRIMARY KEY (job_key, run_key, kind, conf_key)
);
CREATE TABLE IF NOT EXISTS tuner_jobs (
  job_key      VARCHAR(1024) PRIMARY KEY,
  frozen       BOOLEAN       NOT NULL,
  updated_at   BIGINT        NOT NULL
);
