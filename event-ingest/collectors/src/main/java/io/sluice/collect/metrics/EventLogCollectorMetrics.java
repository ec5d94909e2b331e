package io.sluice.collect.metrics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.sluice.collect.EventLogCollector;
import java.util.function.ToDoubleFunction;

/**
 * The event-log collector's meters, read from its {@link EventLogCollector#stats()} and {@link
 * EventLogCollector#lag()} at scrape time. Prometheus names: {@code sluice_collector_*}; counters
 * end in {@code _total}.
 */
public final class EventLogCollectorMetrics implements MeterBinder {

  private final EventLogCollector collector;

  public EventLogCollectorMetrics(EventLogCollector collector) {
    this.collector = collector;
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    counter(
        registry,
        "sluice.collector.lines.read",
        "Lines read from event logs (reread lines count again)",
        c -> c.stats().linesRead());
    counter(
        registry,
        "sluice.collector.lines.published",
        "Lines sent to Kafka (resent lines count again)",
        c -> c.stats().linesPublished());
    counter(
        registry,
        "sluice.collector.lines.skipped",
        "Lines larger than Kafka accepts, passed over",
        c -> c.stats().linesSkipped());
    counter(
        registry,
        "sluice.collector.lines.bad",
        "Lines that are not JSON, not published",
        c -> c.stats().badLines());
    counter(
        registry,
        "sluice.collector.publish.failures",
        "Passes ended because Kafka did not acknowledge a line",
        c -> c.stats().publishFailures());
    counter(
        registry,
        "sluice.collector.producer.replacements",
        "Kafka producers replaced after a failed delivery",
        c -> c.stats().producerReplacements());
    counter(
        registry,
        "sluice.collector.offset.save.failures",
        "Failed writes of the offsets file",
        c -> c.stats().offsetSaveFailures());
    counter(
        registry,
        "sluice.collector.batches.split",
        "Batch records Kafka refused as too large, sent again in halves",
        c -> c.stats().batchesSplit());
    counter(
        registry,
        "sluice.collector.passes",
        "Passes over the event-log directories",
        c -> c.stats().passes());
    counter(
        registry,
        "sluice.collector.logs.completed",
        "Logs read to the end after their application ended",
        c -> c.stats().logsCompleted());
    gauge(
        registry,
        "sluice.collector.logs",
        "Logs found by the last pass",
        c -> c.stats().logsSeen());
    gauge(
        registry,
        "sluice.collector.logs.behind",
        "Followed logs with bytes not yet read",
        c -> c.lag().logsBehind());
    gauge(
        registry,
        "sluice.collector.unread.bytes",
        "Bytes not yet read, over all followed logs",
        c -> c.lag().unreadBytes());
    gauge(
        registry,
        "sluice.collector.unread.bytes.max",
        "Bytes not yet read in the log furthest behind",
        c -> c.lag().maxUnreadBytes());
    gauge(
        registry,
        "sluice.collector.oldest.unread.age.seconds",
        "How long the log behind the longest has had unread bytes (0: none behind)",
        c -> c.lag().oldestUnreadSeconds());
  }

  private void counter(
      MeterRegistry registry, String name, String help, ToDoubleFunction<EventLogCollector> f) {
    FunctionCounter.builder(name, collector, f).description(help).register(registry);
  }

  private void gauge(
      MeterRegistry registry, String name, String help, ToDoubleFunction<EventLogCollector> f) {
    Gauge.builder(name, collector, f).description(help).strongReference(true).register(registry);
  }
}
