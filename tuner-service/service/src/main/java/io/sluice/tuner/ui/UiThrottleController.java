package io.sluice.tuner.ui;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonRawValue;
import io.sluice.store.GateEvent;
import io.sluice.store.GateEventLog;
import io.sluice.store.GateEventQuery;
import io.sluice.store.JobQuery;
import io.sluice.store.Page;
import io.sluice.tuner.api.BadRequest;
import io.sluice.tuner.store.StoreGateway;
import io.swagger.v3.oas.annotations.Operation;
import java.time.Clock;
import java.util.List;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** The UI's view of the ESS gates, from their stored events (window default: the last 7 days). */
@RestController
@RequestMapping("/api/v1/ui/throttle")
class UiThrottleController {
  @JsonPropertyOrder({"from", "to", "nodes"})
  record Nodes(long from, long to, List<ThrottleReadings.NodeRow> nodes) {}

  /** A stored event as the gate published it, plus where it came from on the topic. */
  @JsonPropertyOrder({"partition", "offset", "event"})
  record RawEvent(int partition, long offset, @JsonRawValue String event) {
    static RawEvent of(GateEvent e) {
      return new RawEvent(e.partition(), e.offset(), e.json());
    }
  }

  @JsonPropertyOrder({"from", "to", "bucketMs", "buckets"})
  record Timeline(long from, long to, long bucketMs, List<ThrottleReadings.Bucket> buckets) {}

  @JsonPropertyOrder({"from", "to", "items"})
  record Apps(long from, long to, List<GateEventLog.AppHolds> items) {}

  private record NodeData(List<GateEvent> changes, List<ThrottleReadings.NodeRow> rows) {}

  private final StoreGateway gateway;
  private final Clock clock;

  UiThrottleController(StoreGateway gateway, Clock clock) {
    this.gateway = gateway;
    this.clock = clock;
  }

  @GetMapping("/nodes")
  @Operation(
      summary =
          "ESS nodes: state now and since when, newest event, held requests, abnormal episodes")
  Nodes nodes(@RequestParam(required = false) Long from, @RequestParam(required = false) Long to) {
    Period p = Period.of(from, to, clock.millis());
    List<ThrottleReadings.NodeRow> rows =
        gateway.call(
            "ui.throttle.nodes",
            StoreGateway.Budget.READ,
            (store, log) ->
                ThrottleReadings.nodes(
                    store.stateChanges(p.from(), p.to()),
                    store.nodeActivity(p.from(), p.to()),
                    p.from(),
                    p.to(),
                    (c, n, s, e) -> store.countGateEvents(c, n, "held", s, e)));
    return new Nodes(p.from(), p.to(), rows);
  }

  @GetMapping("/events")
  @Operation(summary = "Raw gate events, newest first, filtered by cluster, node and type, paged")
  UiViews.Paged<RawEvent> events(
      @RequestParam(required = false) String cluster,
      @RequestParam(required = false) String node,
      @RequestParam(required = false) String type,
      @RequestParam(required = false) Long from,
      @RequestParam(required = false) Long to,
      @RequestParam(defaultValue = "0") int page,
      @RequestParam(defaultValue = "" + JobQuery.DEFAULT_SIZE) int size) {
    Period p = Period.of(from, to, clock.millis());
    GateEventQuery q;
    try {
      q = new GateEventQuery(cluster, node, type, p.from(), p.to(), page, size);
    } catch (IllegalArgumentException e) {
      throw new BadRequest(
          e.getMessage().substring(0, e.getMessage().indexOf('=')), e.getMessage());
    }
    Page<GateEvent> events =
        gateway.call(
            "ui.throttle.events", StoreGateway.Budget.READ, (store, log) -> store.gateEvents(q));
    return new UiViews.Paged<>(
        events.total(),
        events.page(),
        events.size(),
        events.items().stream().map(RawEvent::of).toList());
  }

  @GetMapping("/timeline")
  @Operation(
      summary =
          "Per time bucket: holds, releases, sleep directives and nodes in an abnormal episode")
  Timeline timeline(
      @RequestParam(required = false) Long from,
      @RequestParam(required = false) Long to,
      @RequestParam(required = false) Long bucketMs) {
    Period p = Period.of(from, to, clock.millis());
    long span = p.to() - p.from();
    long bucket = bucketMs == null ? Math.max(1, span / 100) : bucketMs;
    if (bucket < 1 || span / bucket >= ThrottleReadings.MAX_BUCKETS) {
      throw new BadRequest(
          "bucketMs",
          "bucketMs="
              + bucket
              + " must be at least 1 and give fewer than "
              + ThrottleReadings.MAX_BUCKETS
              + " buckets over "
              + span
              + " ms");
    }
    List<ThrottleReadings.Bucket> buckets =
        gateway.call(
            "ui.throttle.timeline",
            StoreGateway.Budget.READ,
            (store, log) ->
                ThrottleReadings.timeline(
                    store.gateTimeline(p.from(), p.to(), bucket),
                    store.stateChanges(p.from(), p.to()),
                    p.from(),
                    p.to(),
                    bucket));
    return new Timeline(p.from(), p.to(), bucket, buckets);
  }

  @GetMapping("/apps")
  @Operation(
      summary =
          "Applications held or sent sleep directives in the window, with priority and counts")
  Apps apps(@RequestParam(required = false) Long from, @RequestParam(required = false) Long to) {
    Period p = Period.of(from, to, clock.millis());
    return new Apps(
        p.from(),
        p.to(),
        gateway.call(
            "ui.throttle.apps",
            StoreGateway.Budget.READ,
            (store, log) -> store.gateApps(p.from(), p.to())));
  }
}
