package io.sluice.tuner.tier.outcome;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.sluice.contracts.Tier;
import io.sluice.contracts.api.RunReportRequest;
import io.sluice.tuner.api.BadRequest;
import io.swagger.v3.oas.annotations.Operation;
import jakarta.validation.Valid;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code /api/v1/tiers/outcomes} and {@code /api/v1/tiers/alerts}: run reports in (from the driver
 * plugin and sluice-submit), counts per tier and queue over a window, the attempts themselves, and
 * the alerts raised. Reads are open like the rest of the API; so are reports, like the throttle's
 * app reports (they come from drivers).
 */
@RestController
@RequestMapping("/api/v1/tiers")
class OutcomeController {
  static final int MAX_LIMIT = 500;
  static final Duration MAX_WINDOW = Duration.ofDays(366);

  /** The counts of one tier and queue in the window. */
  @JsonPropertyOrder({
    "tier",
    "queue",
    "routed",
    "ran",
    "fellBack",
    "failed",
    "succeeded",
    "fallbackRate",
    "failureRate",
    "fallbackReasons"
  })
  record Group(
      Tier tier,
      String queue,
      long routed,
      long ran,
      long fellBack,
      long failed,
      long succeeded,
      Double fallbackRate,
      Double failureRate,
      Map<String, Long> fallbackReasons) {}

  @JsonPropertyOrder({"since", "until", "windowSeconds", "groups", "runs"})
  record Outcomes(
      long since, long until, long windowSeconds, List<Group> groups, List<RunOutcome> runs) {}

  private final OutcomeService service;

  OutcomeController(OutcomeService service) {
    this.service = service;
  }

  @PostMapping("/outcomes")
  @Operation(
      summary =
          "Report a run of a routed job (driver: requested/ran tier and fallback reason; launcher: "
              + "final status). Idempotent per (submission or app id, attempt)")
  RunOutcome report(@Valid @RequestBody RunReportRequest body) {
    return service.report(parse(body));
  }

  @GetMapping("/outcomes")
  @Operation(
      summary =
          "Counts per tier and queue over the window (routed, ran, fell back by reason, failed, "
              + "succeeded) and the newest attempts; filters tier, queue, window (e.g. 1h, 7d; default 24h), limit")
  Outcomes outcomes(
      @RequestParam(required = false) String tier,
      @RequestParam(required = false) String queue,
      @RequestParam(defaultValue = "24h") String window,
      @RequestParam(defaultValue = "50") int limit) {
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
    sums.forEach(
        (key, s) -> {
          String[] tq = key.split("\0", 2);
          long routed = s[OutcomeMerge.Kind.ROUTED.ordinal()];
          long fellBack = s[OutcomeMerge.Kind.FELL_BACK.ordinal()];
          long failed = s[OutcomeMerge.Kind.FAILED.ordinal()];
          groups.add(
              new Group(
                  Tier.valueOf(tq[0]),
                  tq[1],
                  routed,
                  s[OutcomeMerge.Kind.RAN.ordinal()],
                  fellBack,
                  failed,
                  s[OutcomeMerge.Kind.SUCCEEDED.ordinal()],
                  routed == 0 ? null : (double) fellBack / routed,
                  routed == 0 ? null : (double) failed / routed,
                  reasons.getOrDefault(key, Map.of())));
        });
    return new Outcomes(since, until, w.toSeconds(), groups, read.runs());
  }

  @GetMapping("/alerts")
  @Operation(
      summary =
          "Alerts raised (fallback or failure rate over the window), newest first, with the webhook's "
              + "delivery; filters tier, queue, window (default 7d), limit")
  List<TierAlert> alerts(
      @RequestParam(required = false) String tier,
      @RequestParam(required = false) String queue,
      @RequestParam(defaultValue = "7d") String window,
      @RequestParam(defaultValue = "50") int limit) {
    Tier t = tier == null || tier.isBlank() ? null : tier("tier", tier);
    String q = queue == null || queue.isBlank() ? null : queue.trim();
    return service.alerts(service.now() - window(window).toMillis(), t, q, limit(limit));
  }

  private static RunReport parse(RunReportRequest b) {
    return new RunReport(
        text(b.submissionId()),
        text(b.appId()),
        b.attempt(),
        RunReport.Source.valueOf(b.source().trim().toUpperCase(Locale.ROOT)),
        text(b.cluster()),
        text(b.queue()),
        text(b.jobKey()),
        tier(b.requestedTier()),
        tier(b.ranTier()),
        text(b.fallbackReason()),
        text(b.fallbackDetail()),
        b.decisionMs(),
        RunReport.Status.valueOf(b.status().trim().toUpperCase(Locale.ROOT)),
        b.exitCode());
  }

  /** A tier the request's validation accepted, or null when absent. */
  private static Tier tier(String v) {
    return v == null ? null : Tier.parse(v).orElseThrow();
  }

  private static Tier tier(String field, String v) {
    return Tier.parse(v)
        .orElseThrow(
            () ->
                new BadRequest(
                    field, field + " must be one of ESS, SPARK_PUSH, CELEBORN, UNIFFLE, was " + v));
  }

  /** Trimmed, or null when absent or blank (the store keeps no empty strings). */
  private static String text(String v) {
    if (v == null) {
      return null;
    }
    String t = v.trim();
    return t.isEmpty() ? null : t;
  }

  private static Duration window(String text) {
    Duration w;
    try {
      w = DurationStyle.detectAndParse(text.trim());
    } catch (IllegalArgumentException e) {
      throw new BadRequest(
          "window", "window must be a duration such as 1h, 30m, 7d or PT1H, was " + text);
    }
    if (w.isNegative() || w.isZero() || w.compareTo(MAX_WINDOW) > 0) {
      throw new BadRequest(
          "window", "window must be > 0 and at most " + MAX_WINDOW.toDays() + " days, was " + w);
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
