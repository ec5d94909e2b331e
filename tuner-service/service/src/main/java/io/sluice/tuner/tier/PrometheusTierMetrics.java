package io.sluice.tuner.tier;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;

/**
 * A tier's capacity and health from its Prometheus text endpoint (e.g. a Celeborn master's {@code
 * http://host:9098/metrics/prometheus}). {@link #refresh()} scrapes (called on a schedule, never on
 * the submission path); {@link #capacity()} answers from the last good scrape while it is younger
 * than {@code maxAge}, otherwise from configuration, and says why in {@link TierCapacity#source()}.
 *
 * <p>Figures: free = sum of the {@code freeMetric} samples, total = sum of {@code totalMetric};
 * healthy = the configuration says healthy and, when {@code workersMetric} is present, workers
 * minus {@code excludedMetric} (absent: 0) is above zero. A scrape without {@code freeMetric}
 * counts as failed.
 */
public final class PrometheusTierMetrics implements TierMetricsSource {
  /** A Celeborn 0.5 master's metric names: the defaults of {@link TierProperties.TierSettings}. */
  public static final String CELEBORN_FREE = "metrics_DeviceCelebornFreeBytes_Value";

  public static final String CELEBORN_TOTAL = "metrics_DeviceCelebornTotalBytes_Value";
  public static final String CELEBORN_WORKERS = "metrics_WorkerCount_Value";
  public static final String CELEBORN_EXCLUDED = "metrics_ExcludedWorkerCount_Value";

  /** Metric names; the defaults are a Celeborn 0.5 master's. */
  public record Names(String free, String total, String workers, String excluded) {
    public static Names celebornMaster() {
      return new Names(CELEBORN_FREE, CELEBORN_TOTAL, CELEBORN_WORKERS, CELEBORN_EXCLUDED);
    }
  }

  private record Scrape(long atMs, TierCapacity capacity) {}

  private final URI uri;
  private final Names names;
  private final ConfiguredTierMetrics fallback;
  private final boolean configuredHealthy;
  private final Duration maxAge;
  private final Duration timeout;
  private final Clock clock;
  private final HttpClient http;
  private volatile Scrape last;
  private volatile String lastError = "not scraped yet";

  public PrometheusTierMetrics(
      URI uri,
      Names names,
      ConfiguredTierMetrics fallback,
      Duration maxAge,
      Duration timeout,
      Clock clock) {
    this.uri = uri;
    this.names = names;
    this.fallback = fallback;
    this.configuredHealthy = fallback.capacity().healthy();
    this.maxAge = maxAge;
    this.timeout = timeout;
    this.clock = clock;
    this.http = HttpClient.newBuilder().connectTimeout(timeout).build();
  }

  /** Scrapes once; true when the figures were updated. Never throws. */
  public boolean refresh() {
    try {
      HttpResponse<String> r =
          http.send(
              HttpRequest.newBuilder(uri)
                  .timeout(timeout)
                  .header("Accept", "text/plain; version=0.0.4")
                  .GET()
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      if (r.statusCode() != 200) {
        lastError = "HTTP " + r.statusCode();
        return false;
      }
      Map<String, Double> m = PrometheusText.sums(r.body());
      Double free = m.get(names.free());
      if (free == null || free.isNaN()) {
        lastError = "no " + names.free() + " in the scrape";
        return false;
      }
      Double total = m.get(names.total());
      boolean healthy = configuredHealthy;
      String health = "";
      Double workers = m.get(names.workers());
      if (workers != null) {
        double excluded = m.getOrDefault(names.excluded(), 0.0);
        double available = workers - excluded;
        healthy = healthy && available > 0;
        health = ", " + (long) available + " of " + workers.longValue() + " workers available";
      }
      long now = clock.millis();
      last =
          new Scrape(
              now,
              new TierCapacity(
                  free.longValue(),
                  total == null ? 0 : total.longValue(),
                  healthy,
                  "metrics " + uri + health));
      lastError = "no good scrape since";
      return true;
    } catch (IOException e) {
      lastError =
          "unreachable ("
              + e.getClass().getSimpleName()
              + (e.getMessage() == null ? "" : ": " + e.getMessage())
              + ")";
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      lastError = "interrupted";
      return false;
    } catch (RuntimeException e) {
      lastError = "failed (" + e + ")";
      return false;
    }
  }

  @Override
  public TierCapacity capacity() {
    Scrape s = last;
    long now = clock.millis();
    if (s != null && now - s.atMs() <= maxAge.toMillis()) {
      TierCapacity c = s.capacity();
      return new TierCapacity(
          c.freeBytes(),
          c.totalBytes(),
          c.healthy(),
          c.source() + " (" + (now - s.atMs()) / 1000 + " s old)");
    }
    TierCapacity conf = fallback.capacity();
    String why =
        s == null
            ? "metrics " + uri + " " + lastError
            : "metrics "
                + uri
                + " stale: last good scrape "
                + (now - s.atMs()) / 1000
                + " s ago (max "
                + maxAge.toSeconds()
                + " s), then "
                + lastError;
    return new TierCapacity(
        conf.freeBytes(), conf.totalBytes(), conf.healthy(), "configuration; " + why);
  }

  @Override
  public String describe() {
    return "Prometheus text at " + uri + ", configuration when stale: " + fallback.describe();
  }
}
