package io.sluice.tuner.tier.outcome;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.sluice.contracts.Tier;
import io.sluice.tuner.api.BadRequest;
import io.swagger.v3.oas.annotations.Operation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code /api/v1/tiers/outcomes} and {@code /api/v1/tiers/alerts}: run reports in (from the driver plugin and
 * sluice-submit), counts per tier and queue over a window, the attempts themselves, and the alerts raised. Reads are
 * open like the rest of the API; so are reports, like the throttle's app reports (they come from drivers).
 */
@RestController
@RequestMapping("/api/v1/tiers")
class OutcomeController {
  static final int MAX_LIMIT = 500;
  static final Duration MAX_WINDOW = Duration.ofDays(366);
  private static final Set<String> REPORT_FIELDS = Set.of("submissionId", "appId", "attempt", "source", "cluster",
      "queue", "jobKey", "requestedTier", "ranTier", "fallbackReason", "fallbackDetail", "decisionMs", "status",
      "exitCode");

  /** The counts of one tier and queue in the window. */
  @JsonPropertyOrder({"tier", "queue", "routed", "ran", "fellBack", "failed", "succeeded", "fallbackRate",
      "failureRate", "fallbackReasons"})
  record Group(Tier tier, String queue, long routed, long ran, long fellBack, long failed, long succeeded,
      Double fallbackRate, Double failureRate, Map<String, Long> fallbackReasons) {}

  @JsonPropertyOrder({"since", "until", "windowSeconds", "groups", "runs"})
  record Outcomes(long since, long until, long windowSeconds, List<Group> groups, List<RunOutcome> runs) {}

  private final OutcomeService service;

  OutcomeController(OutcomeService service) {
    this.service = service;
  }

  @PostMapping("/outcomes")
  @Operation(summary = "Report a run of a routed job (driver: requested/ran tier and fallback reason; launcher: "
      + "final status). Idempotent per (submission or app id, attempt)")
  RunOutcome report(@RequestBody(required = false) Map<String, Object> body) {
    return service.report(parse(body));
  }

  @GetMapping("/outcomes")
  @Operation(summary = "Counts per tier and queue over the window (routed, ran, fell back by reason, failed, "
      + "succeeded) and the newest attempts; filters tier, queue, window (e.g. 1h, 7d; default 24h), limit")
  Outcomes outcomes(@RequestParam(required = false) String tier, @RequestParam(required = false) String queue,
      @RequestParam(defaultValue = "24h") String window, @RequestParam(defaultValue = "50") int limit) {
    Tier t = tier == null || tier.isBlank() ? null : tier("tier", tier);
    String q = queue == null || queue.isBlank() ? null : queue.trim();
    long until = service.now();
    Duration w = window(window);
    long since = until - w.toMillis();
    Map<String, long[]> sums = new TreeMap<>();
    Map<String, Map<String, Long>> reasons = new TreeMap<>();
    OutcomeService.Window read = service.window(since, t, q, limit(limit));
    for (OutcomeStore.CountRow c : read.counts()) {
      String key = c.tier().name() + "\0" + c.queue();
      long[] s = sums.computeIfAbsent(key, k -> new long[5]);
      s[c.kind().ordinal()] += c.count();
      if (c.kind() == OutcomeMerge.Kind.FELL_BACK) {
        reasons.computeIfAbsent(key, k -> new TreeMap<>()).merge(c.reason(), c.count(), Long::sum);
      }
    }
    List<Group> groups = new ArrayList<>();
    sums.forEach((key, s) -> {
      String[] tq = key.split("\0", 2);
      long routed = s[OutcomeMerge.Kind.ROUTED.ordinal()];
      long fellBack = s[OutcomeMerge.Kind.FELL_BACK.ordinal()];
      long failed = s[OutcomeMerge.Kind.FAILED.ordinal()];
      groups.add(new Group(Tier.valueOf(tq[0]), tq[1], routed, s[OutcomeMerge.Kind.RAN.ordinal()], fellBack, failed,
          s[OutcomeMerge.Kind.SUCCEEDED.ordinal()], routed == 0 ? null : (double) fellBack / routed,
          routed == 0 ? null : (double) failed / routed, reasons.getOrDefault(key, Map.of())));
    });
    return new Outcomes(since, until, w.toSeconds(), groups, read.runs());
  }

  @GetMapping("/alerts")
  @Operation(summary = "Alerts raised (fallback or failure rate over the window), newest first, with the webhook's "
      + "delivery; filters tier, queue, window (default 7d), limit")
  List<TierAlert> alerts(@RequestParam(required = false) String tier, @RequestParam(required = false) String queue,
      @RequestParam(defaultValue = "7d") String window, @RequestParam(defaultValue = "50") int limit) {
    Tier t = tier == null || tier.isBlank() ? null : tier("tier", tier);
    String q = queue == null || queue.isBlank() ? null : queue.trim();
    return service.alerts(service.now() - window(window).toMillis(), t, q, limit(limit));
  }

  static RunReport parse(Map<String, Object> body) {
    if (body == null) {
      throw new BadRequest("body", "a JSON object body is required (fields " + String.join(", ",
          new TreeSet<>(REPORT_FIELDS)) + ")");
    }
    for (String k : body.keySet()) {
      if (!REPORT_FIELDS.contains(k)) {
        throw new BadRequest(k, "unknown field " + k + " (allowed: " + String.join(", ", new TreeSet<>(REPORT_FIELDS))
            + ")");
      }
    }
    String submissionId = text(body, "submissionId", 200);
    String appId = text(body, "appId", 200);
    if (submissionId == null && appId == null) {
      throw new BadRequest("submissionId", "submissionId or appId is required");
    }
    Long attempt = number(body, "attempt");
    if (attempt == null || attempt < 1 || attempt > 100) {
      throw new BadRequest("attempt", "attempt is required, 1..100" + (attempt == null ? "" : ", was " + attempt));
    }
    RunReport.Source source = enumValue(body, "source", RunReport.Source.class);
    if (source == null || source == RunReport.Source.INFERRED) {
      throw new BadRequest("source", "source is required: DRIVER or LAUNCHER");
    }
    RunReport.Status status = enumValue(body, "status", RunReport.Status.class);
    if (status == null) {
      throw new BadRequest("status", "status is required: STARTED, SUCCEEDED or FAILED");
    }
    String requested = text(body, "requestedTier", 32);
    String ran = text(body, "ranTier", 32);
    Long decisionMs = number(body, "decisionMs");
    Long exit = number(body, "exitCode");
    return new RunReport(submissionId, appId, attempt.intValue(), source, text(body, "cluster", 200),
        text(body, "queue", 256), text(body, "jobKey", 1024), requested == null ? null : tier("requestedTier", requested),
        ran == null ? null : tier("ranTier", ran), text(body, "fallbackReason", 64), text(body, "fallbackDetail", 2000),
        decisionMs, status, exit == null ? null : exit.intValue());
  }

  private static Tier tier(String field, String v) {
    try {
      return Tier.valueOf(v.trim().toUpperCase(Locale.ROOT).replace('-', '_'));
    } catch (IllegalArgumentException e) {
      throw new BadRequest(field, field + " must be one of ESS, SPARK_PUSH, CELEBORN, UNIFFLE, was " + v);
    }
  }

  private static <E extends Enum<E>> E enumValue(Map<String, Object> body, String field, Class<E> type) {
    String v = text(body, field, 32);
    if (v == null) {
      return null;
    }
    try {
      return Enum.valueOf(type, v.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new BadRequest(field, field + " is not one of " + java.util.Arrays.toString(type.getEnumConstants())
          + ": " + v);
    }
  }

  private static String text(Map<String, Object> body, String field, int max) {
    Object v = body.get(field);
    if (v == null) {
      return null;
    }
    if (!(v instanceof String s)) {
      throw new BadRequest(field, field + " must be a string");
    }
    String t = s.trim();
    if (t.length() > max) {
      throw new BadRequest(field, field + " is longer than " + max + " characters");
    }
    return t.isEmpty() ? null : t;
  }

  private static Long number(Map<String, Object> body, String field) {
    Object v = body.get(field);
    if (v == null) {
      return null;
    }
    if (v instanceof Integer || v instanceof Long) {
      return ((Number) v).longValue();
    }
    throw new BadRequest(field, field + " must be a whole number, was " + v);
  }

  private static Duration window(String text) {
    Duration w;
    try {
      w = DurationStyle.detectAndParse(text.trim());
    } catch (IllegalArgumentException e) {
      throw new BadRequest("window", "window must be a duration such as 1h, 30m, 7d or PT1H, was " + text);
    }
    if (w.isNegative() || w.isZero() || w.compareTo(MAX_WINDOW) > 0) {
      throw new BadRequest("window", "window must be > 0 and at most " + MAX_WINDOW.toDays() + " days, was " + w);
    }
    return w;
  }

  private static int limit(int limit) {
    if (limit < 1 || limit > MAX_LIMIT) {
      throw new BadRequest("limit", "limit must be in 1.." + MAX_LIMIT + ", was " + limit);
    }
    return limit;
  }
}
