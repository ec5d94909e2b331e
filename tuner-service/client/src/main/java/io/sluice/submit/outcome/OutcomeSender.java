package io.sluice.submit.outcome;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.contracts.api.LaunchFailureReport;
import io.sluice.contracts.api.RunReportRequest;
import io.sluice.submit.client.TunerToken;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * Sends one run report to tuner-service within a deadline. Never throws: the answer is one line
 * saying what happened (for stderr). The service merges reports per (run, attempt), so sending one
 * twice is harmless.
 */
public final class OutcomeSender {
  /** Deadline of one report (connect + answer). */
  public static final Duration TIMEOUT = Duration.ofSeconds(3);

  /** The contract records as JSON, absent (null) fields left out. */
  private static final ObjectMapper JSON =
      new ObjectMapper().setSerializationInclusion(JsonInclude.Include.NON_NULL);

  private final URI endpoint;
  private final Duration timeout;
  private final String what;

  public OutcomeSender(URI baseUrl, Duration timeout) {
    this(baseUrl, OutcomeReports.PATH, "tier outcome", timeout);
  }

  /**
   * A sender to {@code path} under the base URL; {@code what} names the report in the one-line
   * notes.
   */
  public OutcomeSender(URI baseUrl, String path, String what, Duration timeout) {
    String base = baseUrl.toString();
    this.endpoint =
        URI.create((base.endsWith("/") ? base.substring(0, base.length() - 1) : base) + path);
    this.timeout = timeout;
    this.what = what;
  }

  public URI endpoint() {
    return endpoint;
  }

  /**
   * Posts the report (a contract record of {@code io.sluice.contracts.api}); returns a one-line
   * note.
   */
  public String send(Record report) {
    try {
      HttpClient http =
          HttpClient.newBuilder()
              .version(HttpClient.Version.HTTP_1_1)
              .connectTimeout(timeout)
              .followRedirects(HttpClient.Redirect.NEVER)
              .build();
      HttpRequest req =
          TunerToken.authorize(HttpRequest.newBuilder(endpoint))
              .timeout(timeout)
              .header("Content-Type", "application/json")
              .POST(HttpRequest.BodyPublishers.ofString(json(report)))
              .build();
      HttpResponse<String> r = http.send(req, HttpResponse.BodyHandlers.ofString());
      if (r.statusCode() != 200) {
        return what + " not reported: " + endpoint + " answered HTTP " + r.statusCode();
      }
      return what + " reported (" + summary(report) + ")";
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

  /** The body sent for {@code report}: its JSON without the absent fields. */
  static String json(Record report) throws JsonProcessingException {
    return JSON.writeValueAsString(report);
  }

  private static String summary(Record report) {
    if (report instanceof RunReportRequest r) {
      return r.status() + ", attempt " + r.attempt();
    }
    return report instanceof LaunchFailureReport f
        ? "exit " + f.exitCode()
        : report.getClass().getSimpleName();
  }
}
