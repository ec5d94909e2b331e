-- tuner-service's push-tier outcome tables in the history store's H2 database (created if absent). tier_runs holds
-- what is known about each attempt of a routed run (JSON io.sluice.tuner.tier.outcome.RunOutcome), keyed by
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
