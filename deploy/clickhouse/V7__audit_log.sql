-- Sluice history store, ClickHouse schema, version 7: the audit log of operator and admin actions (GET /api/v1/audit).
-- Before version 7 tuner-service created this table itself when it first wrote to it, so the statement finds it in
-- place in such a database. A MergeTree: entries are only ever appended, newest read first.
CREATE TABLE IF NOT EXISTS sluice_audit (
  id           String,
  at           Int64,
  actor        String,
  action       String,
  target       String,
  before_state Nullable(String),
  after_state  Nullable(String)
) ENGINE = MergeTree
ORDER BY (at, id);
