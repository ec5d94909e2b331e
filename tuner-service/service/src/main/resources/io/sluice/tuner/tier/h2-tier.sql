-- tuner-service's push-tier tables in the history store's H2 database (created if absent; the history store's
-- schema_version is not touched). Rules and deny entries are stored as JSON (io.sluice.tuner.tier.RolloutRule,
-- DenyEntry), one row each; the rule set version and the seed flag in tier_meta.
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
-- Added later: what a decision counts for (the tier admitted to, or the push tier that refused; NULL when not
-- rolled out), so that windows are counted in SQL. Decisions recorded before these columns existed are not counted.
ALTER TABLE tier_decisions ADD COLUMN IF NOT EXISTS tier VARCHAR(16);
ALTER TABLE tier_decisions ADD COLUMN IF NOT EXISTS queue VARCHAR(256);
ALTER TABLE tier_decisions ADD COLUMN IF NOT EXISTS outcome VARCHAR(16);
CREATE INDEX IF NOT EXISTS tier_decisions_at ON tier_decisions (decided_at);
