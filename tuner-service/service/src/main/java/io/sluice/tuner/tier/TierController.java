package io.sluice.tuner.tier;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.sluice.contracts.Tier;
import io.sluice.contracts.api.TierDenyRequest;
import io.sluice.contracts.api.TierPreviewRequest;
import io.sluice.contracts.api.TierRuleRequest;
import io.sluice.model.JobKey;
import io.sluice.tuner.audit.Audit;
import io.sluice.tuner.security.Caller;
import io.swagger.v3.oas.annotations.Operation;
import jakarta.validation.Valid;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code /api/v1/tiers}: the push-tier rollout rules and deny list (changes need the ADMIN role,
 * are audited and take effect for the next submission), the audit trail, a job's recorded tier
 * decisions, the tiers' capacity as admission sees it, and a preview of the decision for a job (not
 * recorded).
 */
@RestController
@RequestMapping("/api/v1/tiers")
class TierController {
  static final int MAX_LIMIT = 500;

  @JsonPropertyOrder({"version", "loaded", "rules", "denies"})
  record Rules(long version, boolean loaded, List<RolloutRule> rules, List<DenyEntry> denies) {}

  @JsonPropertyOrder({"tier", "freeBytes", "totalBytes", "healthy", "source"})
  record Capacity(Tier tier, long freeBytes, long totalBytes, boolean healthy, String source) {}

  private final TierService service;
  private final TierMetrics metrics;

  private final Audit audit;

  TierController(TierService service, TierMetrics metrics, Audit audit) {
    this.audit = audit;
    this.service = service;
    this.metrics = metrics;
  }

  @GetMapping("/rules")
  @Operation(summary = "The rollout rules and deny entries in force")
  Rules rules() {
    RuleSet s = service.rules().current();
    return s == null
        ? new Rules(0, false, List.of(), List.of())
        : new Rules(s.version(), true, s.rules(), s.denies());
  }

  @PutMapping("/rules/{id}")
  @Operation(
      summary =
          "Create or replace a rollout rule (ADMIN; audited; effective for the next submission)")
  Rules putRule(@PathVariable String id, @Valid @RequestBody TierRuleRequest body) {
    String who = Caller.current().name();
    RolloutRule rule =
        new RolloutRule(
            id,
            new Scope(text(body.cluster()), text(body.queue()), text(body.jobKey())),
            Tier.parse(body.tier()).orElseThrow(),
            body.percent(),
            text(body.note()));
    RolloutRule before = rule(service.rules().current(), id);
    Rules after = view(service.rules().putRule(who, rule));
    audit.record("tier.rule.put", id, before, rule);
    return after;
  }

  @DeleteMapping("/rules/{id}")
  @Operation(summary = "Delete a rollout rule (ADMIN; audited)")
  Rules deleteRule(@PathVariable String id) {
    RolloutRule before = rule(service.rules().current(), id);
    Rules after = view(service.rules().deleteRule(Caller.current().name(), id));
    audit.record("tier.rule.delete", id, before, null);
    return after;
  }

  @PutMapping("/denies/{id}")
  @Operation(
      summary = "Create or replace a deny entry: matching jobs stay on the ESS (ADMIN; audited)")
  Rules putDeny(@PathVariable String id, @Valid @RequestBody TierDenyRequest body) {
    String who = Caller.current().name();
    DenyEntry deny =
        new DenyEntry(
            id,
            new Scope(text(body.cluster()), text(body.queue()), text(body.jobKey())),
            text(body.reason()));
    DenyEntry before = deny(service.rules().current(), id);
    Rules after = view(service.rules().putDeny(who, deny));
    audit.record("tier.deny.put", id, before, deny);
    return after;
  }

  @DeleteMapping("/denies/{id}")
  @Operation(summary = "Delete a deny entry (ADMIN; audited)")
  Rules deleteDeny(@PathVariable String id) {
    DenyEntry before = deny(service.rules().current(), id);
    Rules after = view(service.rules().deleteDeny(Caller.current().name(), id));
    audit.record("tier.deny.delete", id, before, null);
    return after;
  }

  @GetMapping("/audit")
  @Operation(summary = "Rule changes, newest first: who, when, what, before and after")
  List<AuditEntry> audit(@RequestParam(defaultValue = "50") int limit) {
    return service.audit(limit(limit));
  }

  @GetMapping("/decisions")
  @Operation(summary = "A job's recorded tier decisions, newest first, with their reasons")
  List<TierDecision> decisions(
      @RequestParam String jobKey, @RequestParam(defaultValue = "20") int limit) {
    return service.decisions(io.sluice.tuner.api.Limits.jobKey("jobKey", jobKey), limit(limit));
  }

  @GetMapping("/capacity")
  @Operation(
      summary =
          "Each push tier's free capacity and health as admission sees them, and their source")
  List<Capacity> capacity() {
    return metrics.all().entrySet().stream()
        .sorted(Map.Entry.comparingByKey())
        .map(
            e -> {
              TierCapacity c = e.getValue().capacity();
              return new Capacity(
                  e.getKey(), c.freeBytes(), c.totalBytes(), c.healthy(), c.source());
            })
        .toList();
  }

  @PostMapping("/preview")
  @Operation(
      summary =
          "The tier decision a submission would get now (not recorded): cluster, queue, user, appName "
              + "or jobKey, conf")
  TierDecision preview(@Valid @RequestBody TierPreviewRequest body) {
    String cluster = text(body.cluster());
    String queue = text(body.queue());
    Map<String, String> conf = body.conf();
    String jobKey = text(body.jobKey());
    if (jobKey.isBlank()) {
      String app = text(body.appName());
      if (app.isBlank() && conf.get(JobKey.EXPLICIT_KEY) == null) {
        throw new InvalidTierInput("jobKey", "give jobKey, or appName (with cluster, queue, user)");
      }
      jobKey = JobKey.of(conf.get(JobKey.EXPLICIT_KEY), cluster, queue, text(body.user()), app);
    }
    return service.evaluate(
        new JobRef(cluster, queue, jobKey), conf, "preview-" + UUID.randomUUID());
  }

  private static RolloutRule rule(RuleSet s, String id) {
    return s == null
        ? null
        : s.rules().stream().filter(r -> r.id().equals(id)).findFirst().orElse(null);
  }

  private static DenyEntry deny(RuleSet s, String id) {
    return s == null
        ? null
        : s.denies().stream().filter(d -> d.id().equals(id)).findFirst().orElse(null);
  }

  private static Rules view(RuleSet s) {
    return new Rules(s.version(), true, s.rules(), s.denies());
  }

  private static String text(String v) {
    return v == null ? "" : v.trim();
  }

  private static int limit(int limit) {
    if (limit < 1 || limit > MAX_LIMIT) {
      throw new InvalidTierInput("limit", "limit must be in 1.." + MAX_LIMIT + ", was " + limit);
    }
    return limit;
  }
}
