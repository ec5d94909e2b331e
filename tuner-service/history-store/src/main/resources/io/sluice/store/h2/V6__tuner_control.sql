-- Sluice history store, embedded (H2) schema, version 6: tuner-service's control state, the push tier's rules,
-- decisions and outcomes, and the audit log (the ClickHouse counterparts are deploy/clickhouse/V5 and V7).
-- Before version 6, tuner-service created these tables itself when it first reached them, so a database may hold
-- some of them already, in any of their earlier shapes: every statement here finds its object in place.

-- The decision log: decisions taken about runs, one row per (job, run, kind, conf key); operator freezes per job.
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

-- The push tier. Rules and deny entries are stored as JSON (io.sluice.tuner.tier.RolloutRule, DenyEntry), one row
-- each; the rule set version and the seed flag in tier_meta.
CREATE TABLE IF NOT EXISTS tier_items (
  kind        VARCHAR(8)    NOT NULL,   -- rule | deny
  id          VARCHAR(64)   NOT NULL,
  json        VARCHAR(8192) NOT NULL,
  PRIMARY KEY (kind, id)
);
CREATE TABLE IF NOT EXISTS tier_meta (
  k           VARCHAR(64)   PRIMARY KEY,
  v           VARCHAR(256)  NOT NULL
);
CREATE TABLE IF NOT EXISTS tier_audit (
  seq         BIGINT AUTO_INCREMENT PRIMARY KEY,
  at          BIGINT        NOT NULL,   -- epoch ms
  actor       VARCHAR(256)  NOT NULL,
  action      VARCHAR(32)   NOT NULL,
  item_id     VARCHAR(64)   NOT NULL,
  before_json VARCHAR(8192),
  after_json  VARCHAR(8192),
  version     BIGINT        NOT NULL
);
CREATE TABLE IF NOT EXISTS tier_decisions (
  seq         BIGINT AUTO_INCREMENT PRIMARY KEY,
  job_key     VARCHAR(1024) NOT NULL,
  decided_at  BIGINT        NOT NULL,
  json        VARCHAR(16384) NOT NULL
);
CREATE INDEX IF NOT EXISTS tier_decisions_job ON tier_decisions (job_key, seq);
-- Columns added after the table first shipped: what a decision counts for (the tier admitted to, or the push tier that refused; NULL when not
-- rolled out), so that windows are counted in SQL. Decisions recorded before these columns existed are not counted.
ALTER TABLE tier_decisions ADD COLUMN IF NOT EXISTS tier VARCHAR(16);
ALTER TABLE tier_decisions ADD COLUMN IF NOT EXISTS queue VARCHAR(256);
ALTER TABLE tier_decisions ADD COLUMN IF NOT EXISTS outcome VARCHAR(16);
CREATE INDEX IF NOT EXISTS tier_decisions_at ON tier_decisions (decided_at);

-- The push tier's outcomes. tier_runs holds what is known about each attempt of a routed run (JSON
-- io.sluice.tuner.tier.outcome.RunOutcome), keyed by
-- (run_key, attempt): reports are merged into it, which makes them idempotent. tier_outcome_events holds one row per
-- count (routed, ran, fell_back, failed, succeeded) at the moment it was counted: the windowed counts and the
-- Prometheus totals after a restart come from it. tier_alerts holds the alerts raised (JSON TierAlert).
-- tier_outcome_totals holds, per count key, the events the retention prune deleted (so all-time totals stay exact).
CREATE TABLE IF NOT EXISTS tier_runs (
  run_key     VARCHAR(300)   NOT NULL,
  attempt     INT            NOT NULL,
  first_at    BIGINT         NOT NULL,   -- epoch ms
  updated_at  BIGINT         NOT NULL,
  json        VARCHAR(16384) NOT NULL,
  PRIMARY KEY (run_key, attempt)
);
CREATE INDEX IF NOT EXISTS tier_runs_first ON tier_runs (first_at);
CREATE TABLE IF NOT EXISTS tier_outcome_events (
  seq         BIGINT AUTO_INCREMENT PRIMARY KEY,
  at          BIGINT         NOT NULL,   -- epoch ms
  tier        VARCHAR(16)    NOT NULL,
  queue       VARCHAR(256)   NOT NULL,
  outcome     VARCHAR(16)    NOT NULL,   -- routed | ran | fell_back | failed | succeeded
  reason      VARCHAR(64)    NOT NULL    -- the fallback code for fell_back, else ''
);
CREATE INDEX IF NOT EXISTS tier_outcome_events_at ON tier_outcome_events (at);
CREATE TABLE IF NOT EXISTS tier_alerts (
  seq         BIGINT AUTO_INCREMENT PRIMARY KEY,
  raised_at   BIGINT         NOT NULL,
  tier        VARCHAR(16)    NOT NULL,
  queue       VARCHAR(256)   NOT NULL,
  kind        VARCHAR(32)    NOT NULL,
  json        VARCHAR(16384) NOT NULL
);
CREATE INDEX IF NOT EXISTS tier_alerts_key ON tier_alerts (tier, queue, kind, raised_at);
CREATE TABLE IF NOT EXISTS tier_outcome_totals (
  tier        VARCHAR(16)    NOT NULL,
  queue       VARCHAR(256)   NOT NULL,
  outcome     VARCHAR(16)    NOT NULL,
  reason      VARCHAR(64)    NOT NULL,
  pruned      BIGINT         NOT NULL,   -- events of this key deleted by the prune
  PRIMARY KEY (tier, queue, outcome, reason)
);

-- The audit log of operator and admin actions.
CREATE TABLE IF NOT EXISTS sluice_audit (
  id           VARCHAR(64)   PRIMARY KEY,
  at           BIGINT        NOT NULL,   -- epoch ms
  actor        VARCHAR(256)  NOT NULL,
  action       VARCHAR(64)   NOT NULL,
  target       VARCHAR(1024) NOT NULL,
  before_state CLOB,
  after_state  CLOB
);
