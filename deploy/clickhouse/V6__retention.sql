-- Retention on ClickHouse: TTL clauses with the documented defaults (docs/operations.md, "Retention"), so that the
-- append-only tables expire at merges even where tuner-service's pruner does not run. The pruner
-- (sluice.retention.*) deletes on the same columns with the configured retention; a retention longer than these
-- defaults also needs the TTL raised: ALTER TABLE <table> MODIFY TTL ... (the same expression, more days).
-- Runs (app_runs, stage_profiles) have no TTL: only the pruner deletes them, because it also re-derives the job
-- list (job_summaries) of the jobs it touched. Control state (tuner_jobs, tier_rule_sets) never expires.
ALTER TABLE gate_events MODIFY TTL toDateTime(intDiv(at, 1000)) + INTERVAL 30 DAY;
ALTER TABLE tuner_decisions MODIFY TTL toDateTime(intDiv(decided_at, 1000)) + INTERVAL 365 DAY;
ALTER TABLE tier_decisions MODIFY TTL toDateTime(intDiv(decided_at, 1000)) + INTERVAL 365 DAY;
ALTER TABLE tier_audit MODIFY TTL toDateTime(intDiv(at, 1000)) + INTERVAL 365 DAY;
