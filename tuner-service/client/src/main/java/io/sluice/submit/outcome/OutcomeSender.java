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
  private final String what;

  public OutcomeSender(URI baseUrl, Duration timeout) {
    this(baseUrl, OutcomeReports.PATH, "tier outcome", timeout);
  }

  /** A sender to {@code path} under the base URL; {@code what} names the report in the one-line notes. */
  public OutcomeSender(URI baseUrl, String path, String what, Duration timeout) {
    String base = baseUrl.toString();
    this.endpoint = URI.create((base.endsWith("/") ? base.substring(0, base.length() - 1) : base) + path);
    this.timeout = timeout;
    this.what = what;
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
      if (r.statusCode() != 200) {
        return what + " not reported: " + endpoint + " answered HTTP " + r.statusCode();
      }
      return report.containsKey("attempt") ? what + " reported (" + report.get("status") + ", attempt "
          + report.get("attempt") + ")" : what + " reported (exit " + report.get("exitCode") + ")";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return what + " not reported: interrupted";
    } catch (Throwable t) {
      if (t instanceof VirtualMachineError vme && !(t instanceof OutOfMemoryError)) {
        throw vme;
      }
      return what + " not reported (" + t.getClass().getSimpleName() + ": " + t.getMessage() + ")";
    }
  }
}
