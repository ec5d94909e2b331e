package io.sluice.collect.metrics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.sluice.collect.YarnRmPoller;
import java.util.function.ToDoubleFunction;

/**
 * The YARN poller's meters, read from its {@link YarnRmPoller#stats()} at scrape time. Prometheus
 * names: {@code sluice_yarn_poller_*}; counters end in {@code _total}.
 */
public final class YarnPollerMetrics implements MeterBinder {

  private final YarnRmPoller poller;

  public YarnPollerMetrics(YarnRmPoller poller) {
    this.poller = poller;
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    counter(
        registry,
        "sluice.yarn.poller.polls",
        "Polls of the ResourceManager begun",
        p -> p.stats().polls());
    counter(
        registry,
        "sluice.yarn.poller.poll.failures",
        "Polls that failed for any reason (retried)",
        p -> p.stats().failedPolls());
    counter(
        registry,
        "sluice.yarn.poller.rm.errors",
        "Polls without a usable answer from the ResourceManager",
        p -> p.stats().rmErrors());
    counter(
        registry,
        "sluice.yarn.poller.records.fetched",
        "Application records fetched",
        p -> p.stats().recordsFetched());
    counter(
        registry,
        "sluice.yarn.poller.records.published",
        "Changed application records published to Kafka",
        p -> p.stats().recordsPublished());
    Gauge.builder(
            "sluice.yarn.poller.last.success.timestamp.seconds",
            poller,
            p -> p.stats().lastSuccessEpochMs() / 1000.0)
        .description("Unix time of the last successful poll (0: none yet)")
        .strongReference(true)
        .register(registry);
  }

  private void counter(
      MeterRegistry registry, String name, String help, ToDoubleFunction<YarnRmPoller> f) {
    FunctionCounter.builder(name, poller, f).description(help).register(registry);
  }
}
