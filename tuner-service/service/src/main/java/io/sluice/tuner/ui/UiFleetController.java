package io.sluice.tuner.ui;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.sluice.store.FleetSummary;
import io.sluice.tuner.store.StoreGateway;
import io.sluice.tuner.tier.TierService;
import io.sluice.tuner.tier.outcome.OutcomeService;
import io.swagger.v3.oas.annotations.Operation;
import java.time.Clock;
import java.util.List;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The UI's overview of the fleet and its push-tier summary, over a window (default: the last 7
 * days).
 */
@RestController
@RequestMapping("/api/v1/ui")
class UiFleetController {
  /** How many top jobs the overview lists. */
  static final int TOP_JOBS = 10;

  @JsonPropertyOrder({"total", "tuned", "converged", "frozen"})
  record Jobs(long total, long tuned, long converged, long frozen) {}

  @JsonPropertyOrder({"blockedMs", "wallMs", "jobs", "top"})
  record Saved(long blockedMs, long wallMs, long jobs, List<FleetSummary.Saving> top) {}

  @JsonPropertyOrder({"admissions", "refusals", "fallbacks", "failures", "successes"})
  record TierTotals(long admissions, long refusals, long fallbacks, long failures, long successes) {
    static TierTotals of(List<TierSummaries.TierRow> rows) {
      long[] s = new long[5];
      for (TierSummaries.TierRow r : rows) {
        s[0] += r.admissions();
        s[1] += r.refusals();
        s[2] += r.fallbacks();
        s[3] += r.failures();
        s[4] += r.successes();
      }
      return new TierTotals(s[0], s[1], s[2], s[3], s[4]);
    }
  }

  @JsonPropertyOrder({"nodes", "nodesAbnormal", "appsHeld"})
  record Ess(long nodes, long nodesAbnormal, long appsHeld) {}

  @JsonPropertyOrder({"from", "to", "jobs", "rollbacks", "saved", "ess", "tier"})
  record Overview(
      long from, long to, Jobs jobs, long rollbacks, Saved saved, Ess ess, TierTotals tier) {}

  @JsonPropertyOrder({"from", "to", "items"})
  record TierSummary(long from, long to, List<TierSummaries.TierRow> items) {}

  private record Fleet(FleetSummary summary, long rollbacks, Ess ess) {}

  private final StoreGateway gateway;
  private final TierService tiers;
  private final OutcomeService outcomes;
  private final Clock clock;

  UiFleetController(StoreGateway gateway, TierService tiers, OutcomeService outcomes, Clock clock) {
    this.gateway = gateway;
    this.tiers = tiers;
    this.outcomes = outcomes;
    this.clock = clock;
  }

  @GetMapping("/overview")
  @Operation(
      summary =
          "What Sluice did over the window: jobs tuned, converged, frozen; runs rolled back; time saved "
              + "(each job's newest run against its baseline, over jobs whose newest run is in the window); ESS nodes, "
              + "abnormal now, applications held; push-tier counts")
  Overview overview(
      @RequestParam(required = false) Long from, @RequestParam(required = false) Long to) {
    Period p = Period.of(from, to, clock.millis());
    Fleet f =
        gateway.call(
            "ui.overview",
            StoreGateway.Budget.READ,
            (store, log) ->
                new Fleet(
                    store.fleet(p.from(), p.to(), TOP_JOBS),
                    log.rolledBackRuns(p.from(), p.to()),
                    new Ess(
                        store.nodeActivity(p.from(), p.to()).size(),
                        ThrottleReadings.abnormalNow(store.stateChanges(p.to(), p.to())),
                        store.gateApps(p.from(), p.to()).stream()
                            .filter(a -> a.held() > 0)
                            .count())));
    FleetSummary s = f.summary();
    return new Overview(
        p.from(),
        p.to(),
        new Jobs(s.jobs(), s.tuned(), s.converged(), s.frozen()),
        f.rollbacks(),
        new Saved(s.blockedMsSaved(), s.wallMsSaved(), s.jobsWithBaseline(), s.top()),
        f.ess(),
        TierTotals.of(tierRows(p)));
  }

  @GetMapping("/tiers/summary")
  @Operation(
      summary =
          "Per tier and queue over the window: admissions, refusals, fallbacks, failures, successes")
  TierSummary tierSummary(
      @RequestParam(required = false) Long from, @RequestParam(required = false) Long to) {
    Period p = Period.of(from, to, clock.millis());
    return new TierSummary(p.from(), p.to(), tierRows(p));
  }

  private List<TierSummaries.TierRow> tierRows(Period p) {
    return TierSummaries.merge(
        tiers.decisionCounts(p.from(), p.to()), outcomes.counts(p.from(), p.to()));
  }
}
