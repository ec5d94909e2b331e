package io.sluice.tuner.audit;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * One operator or admin action: when ({@code at}, epoch ms), who ({@code actor}, the signed-in
 * principal), what ({@code action}, e.g. {@code job.freeze}, and its {@code target}, e.g. the job
 * key or rule id), and the state {@code before} and {@code after} it (JSON text, null when there
 * was none).
 */
@JsonPropertyOrder({"id", "at", "actor", "action", "target", "before", "after"})
public record AuditRecord(
    String id, long at, String actor, String action, String target, String before, String after) {}
