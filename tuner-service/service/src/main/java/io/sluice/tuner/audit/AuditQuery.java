package io.sluice.tuner.audit;

/** A page of the audit log, newest first; null filters match everything. */
public record AuditQuery(String actor, String action, String target, int offset, int limit) {}
