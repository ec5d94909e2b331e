package io.sluice.tuner.tier.outcome;

import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.model.Json;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends alerts to the configured webhook: {@code POST <url>} with the {@link TierAlert} as JSON,
 * from one background thread with a bounded queue ({@code sluice.tier.alerts.webhook-queue}; a full
 * queue drops the alert), each call bounded by {@code webhook-timeout} and retried by a
 * resilience4j {@link Retry} ({@code webhook-attempts}, {@code webhook-backoff}) on an I/O error or
 * a non-2xx answer. Never blocks or fails the caller; the result goes back through the {@code
 * delivered} callback (the alert's {@code delivery} field) and the meter {@code
 * sluice.tier.alert.webhook} (tag result: delivered, failed, dropped).
 */
public final class AlertWebhook implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(AlertWebhook.class);

  private final URI url;
  private final Duration timeout;
  private final Retry retry;
  private final HttpClient http;
  private final ThreadPoolExecutor sender;
  private final Counter delivered;
  private final Counter failed;
  private final Counter dropped;

  /**
   * @param url null or blank: disabled (alerts are marked {@code DISABLED})
   */
  public AlertWebhook(
      String url,
      Duration timeout,
      int attempts,
      Duration backoff,
      int queue,
      MeterRegistry meters) {
    this.url = url == null || url.isBlank() ? null : URI.create(url.trim());
    this.timeout = timeout;
    this.retry =
        Retry.of(
            "sluice-tier-alert-webhook",
            RetryConfig.<HttpResponse<String>>custom()
                .maxAttempts(attempts)
                .waitDuration(backoff)
                .retryOnResult(r -> r.statusCode() / 100 != 2)
                .retryExceptions(IOException.class)
                .failAfterMaxAttempts(true)
                .build());
    this.http =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(timeout)
            .followRedirects(HttpClient.Redirect.NEVER)
            .build();
    this.sender =
        new ThreadPoolExecutor(
            1,
            1,
            0,
            TimeUnit.MILLISECONDS,
            new ArrayBlockingQueue<>(queue),
            r -> {
              Thread t = new Thread(r, "sluice-tier-alert-webhook");
              t.setDaemon(true);
              return t;
            });
    this.delivered = counter(meters, "delivered");
    this.failed = counter(meters, "failed");
    this.dropped = counter(meters, "dropped");
  }

  private static Counter counter(MeterRegistry meters, String result) {
    return Counter.builder("sluice.tier.alert.webhook")
        .description("Tier alerts sent to the webhook, by result")
        .tag("result", result)
        .register(meters);
  }

  public boolean enabled() {
    return url != null;
  }

  /**
   * Queues the alert; {@code done} gets it back with its delivery set (on the sender thread, or
   * here if dropped).
   */
  public void send(TierAlert alert, Consumer<TierAlert> done) {
    if (url == null) {
      done.accept(alert.withDelivery("DISABLED", "no sluice.tier.alerts.webhook-url"));
      return;
    }
    try {
      sender.execute(() -> done.accept(deliver(alert)));
    } catch (RejectedExecutionException e) {
      dropped.increment();
      LOG.warn(
          "tier alert {} {} {} dropped: the webhook queue is full",
          alert.kind(),
          alert.tier(),
          alert.queue());
      done.accept(alert.withDelivery("DROPPED", "webhook queue full"));
    }
  }

  private TierAlert deliver(TierAlert alert) {
    HttpRequest req =
        HttpRequest.newBuilder(url)
            .timeout(timeout)
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(Json.write(alert)))
            .build();
    try {
      HttpResponse<String> r =
          retry.executeCheckedSupplier(() -> http.send(req, HttpResponse.BodyHandlers.ofString()));
      delivered.increment();
      return alert.withDelivery("DELIVERED", "HTTP " + r.statusCode());
    } catch (Throwable t) {
      if (t instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      failed.increment();
      String note =
          t.getClass().getSimpleName() + (t.getMessage() == null ? "" : ": " + t.getMessage());
      LOG.warn(
          "tier alert {} {} {} not delivered to {} after {} attempts: {}",
          alert.kind(),
          alert.tier(),
          alert.queue(),
          url,
          retry.getRetryConfig().getMaxAttempts(),
          note);
      return alert.withDelivery("FAILED", note);
    }
  }

  /** Waits (bounded) until queued alerts are sent; for tests and shutdown. */
  boolean drain(long timeoutMs) throws InterruptedException {
    long end = System.nanoTime() + timeoutMs * 1_000_000;
    while (System.nanoTime() < end) {
      if (sender.getQueue().isEmpty() && sender.getActiveCount() == 0) {
        return true;
      }
      Thread.sleep(5);
    }
    return false;
  }

  @Override
  public void close() {
    sender.shutdown();
    try {
      sender.awaitTermination(2, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    sender.shutdownNow();
  }
}
