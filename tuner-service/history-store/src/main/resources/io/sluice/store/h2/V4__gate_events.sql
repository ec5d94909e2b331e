-- Sluice history store, embedded (H2) schema: the ESS gates' events (V4; Kafka topic sluice.throttle-events). Every
-- statement is idempotent.
-- One row per event, keyed by what it says and the Kafka record it came in (partition, offset), so a replayed record
-- is stored once. event_json is the whole event, also for types this version does not know; the other columns are
-- for SQL (NULL where the type has no such field). app_id is '' for node-level events.
CREATE TABLE IF NOT EXISTS gate_events (
  cluster       VARCHAR(256)   NOT NULL,
  node          VARCHAR(256)   NOT NULL,
  at            BIGINT         NOT NULL,
  type          VARCHAR(64)    NOT NULL,
  app_id        VARCHAR(256)   NOT NULL,
  src_partition INTEGER        NOT NULL,
  src_offset    BIGINT         NOT NULL,
  priority      INTEGER,
  held_ms       BIGINT,
  sleep_ms      BIGINT,
  to_state      VARCHAR(32),
  event_json    VARCHAR(65536) NOT NULL,
  CONSTRAINT gate_events_pk PRIMARY KEY (cluster, node, at, type, app_id, src_partition, src_offset)
);
CREATE INDEX IF NOT EXISTS gate_events_by_at ON gate_events (at);
CREATE INDEX IF NOT EXISTS gate_events_by_type ON gate_events (type, cluster, node, at);
