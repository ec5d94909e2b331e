package io.sluice.submit.client;

import io.sluice.contracts.api.SubmissionRequest;
import io.sluice.rules.AllowList;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Asks tuner-service for a submission's overlay within one total deadline, behind a {@link
 * CircuitBreaker}. {@link #ask} never throws and never takes (much) longer than the timeout:
 * everything that goes wrong is an {@link Outcome} without advice and a one-line note.
 */
public final class TunerClient {
  public static final String PATH = "/api/v1/submissions";

  private final URI endpoint;
  private final Duration timeout;
  private final CircuitBreaker breaker;
  private final ResponseParser parser;

  public TunerClient(URI baseUrl, Duration timeout, CircuitBreaker breaker, AllowList allowList) {
    String base = baseUrl.toString();
    this.endpoint =
        URI.create((base.endsWith("/") ? base.substring(0, base.length() - 1) : base) + PATH);
    this.timeout = timeout;
    this.breaker = breaker;
    this.parser = new ResponseParser(allowList);
  }

  /** A client with a file-backed breaker as the settings say (settings must carry a URL). */
  public static TunerClient fromSettings(TunerSettings s) {
    CircuitBreaker breaker =
        new CircuitBreaker(
            s.url().toString(),
            new CircuitBreaker.Settings(
                s.breakerFailures(), s.breakerOpenFor(), s.timeout().multipliedBy(2)),
            new CircuitBreaker.FileStore(s.breakerFile()),
            System::currentTimeMillis);
    return new TunerClient(s.url(), s.timeout(), breaker, AllowList.defaults());
  }

  public URI endpoint() {
    return endpoint;
  }

  public Outcome ask(SubmissionRequest request) {
    long start = System.nanoTime();
    try {
      CircuitBreaker.Permission permission = breaker.tryAcquire();
      if (!permission.allowed()) {
        return Outcome.none("skipped: " + permission.reason(), elapsedMs(start));
      }
      long remainingMs = timeout.toMillis() - elapsedMs(start);
      if (remainingMs <= 0) {
        breaker.onFailure();
        return Outcome.none("no time left for the request", elapsedMs(start));
      }
      HttpClient http =
          HttpClient.newBuilder()
              .version(HttpClient.Version.HTTP_1_1)
              .connectTimeout(Duration.ofMillis(remainingMs))
              .followRedirects(HttpClient.Redirect.NEVER)
              .build();
      HttpRequest req =
          TunerToken.authorize(HttpRequest.newBuilder(endpoint))
              .timeout(Duration.ofMillis(remainingMs))
              .header("Content-Type", "application/json")
              .header("Accept", "application/json")
              .POST(HttpRequest.BodyPublishers.ofByteArray(ResponseParser.requestJson(request)))
              .build();
      CompletableFuture<HttpResponse<byte[]>> future =
          http.sendAsync(req, HttpResponse.BodyHandlers.ofByteArray());
      HttpResponse<byte[]> response;
      try {
        response =
            future.get(Math.max(1, timeout.toMillis() - elapsedMs(start)), TimeUnit.MILLISECONDS);
      } catch (TimeoutException e) {
        future.cancel(true);
        breaker.onFailure();
        return Outcome.none("no answer within " + timeout.toMillis() + " ms", elapsedMs(start));
      } catch (ExecutionException e) {
        breaker.onFailure();
        Throwable cause = e.getCause() == null ? e : e.getCause();
        return Outcome.none("request failed: " + describe(cause), elapsedMs(start));
      }
      if (response.statusCode() != 200) {
        breaker.onFailure();
        return Outcome.none("HTTP " + response.statusCode(), elapsedMs(start));
      }
      Advice advice;
      try {
        advice = parser.parse(response.body());
      } catch (ResponseParser.InvalidResponse e) {
        breaker.onFailure();
        return Outcome.none("unusable answer: " + e.getMessage(), elapsedMs(start));
      }
      breaker.onSuccess();
      return Outcome.of(advice, elapsedMs(start));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Outcome.none("interrupted", elapsedMs(start));
    } catch (RuntimeException | Error e) {
      if (e instanceof VirtualMachineError vme && !(e instanceof OutOfMemoryError)) {
        throw vme;
      }
      return Outcome.none("client error: " + describe(e), elapsedMs(start));
    }
  }

  private static String describe(Throwable t) {
    String m = t.getMessage();
    return t.getClass().getSimpleName()
        + (m == null || m.isBlank() ? "" : ": " + ResponseParser.oneLine(m));
  }

  private static long elapsedMs(long startNanos) {
    return (System.nanoTime() - startNanos) / 1_000_000;
  }
}
