package io.sluice.submit.outcome;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.submit.client.TunerToken;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

/**
 * Sends one run report to tuner-service within a deadline. Never throws: the answer is one line saying what
 * happened (for stderr). The service merges reports per (run, attempt), so sending one twice is harmless.
 */
public final class OutcomeSender {
  /** Deadline of one report (connect + answer). */
  public static final Duration TIMEOUT = Duration.ofSeconds(3);
  private static final ObjectMapper JSON = new ObjectMapper();

  private final URI endpoint;
  private final Duration timeout;

  public OutcomeSender(URI baseUrl, Duration timeout) {
    String base = baseUrl.toString();
    this.endpoint = URI.create((base.endsWith("/") ? base.substring(0, base.length() - 1) : base)
        + OutcomeReports.PATH);
    this.timeout = timeout;
  }

  public URI endpoint() {
    return endpoint;
  }

  /** Posts the report; returns a one-line note. */
  public String send(Map<String, Object> report) {
    try {
      HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(timeout)
          .followRedirects(HttpClient.Redirect.NEVER).build();
      HttpRequest req = TunerToken.authorize(HttpRequest.newBuilder(endpoint)).timeout(timeout).header("Content-Type", "application/json")
          .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(report))).build();
      HttpResponse<String> r = http.send(req, HttpResponse.BodyHandlers.ofString());
      return r.statusCode() == 200 ? "tier outcome reported (" + report.get("status") + ", attempt "
          + report.get("attempt") + ")" : "tier outcome not reported: " + endpoint + " answered HTTP " + r.statusCode();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "tier outcome not reported: interrupted";
    } catch (Throwable t) {
      if (t instanceof VirtualMachineError vme && !(t instanceof OutOfMemoryError)) {
        throw vme;
      }
      return "tier outcome not reported (" + t.getClass().getSimpleName() + ": " + t.getMessage() + ")";
    }
  }
}
