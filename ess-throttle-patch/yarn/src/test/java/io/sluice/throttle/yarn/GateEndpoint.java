package io.sluice.throttle.yarn;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a shuffle service's gate shows on its HTTP endpoint: GET /metrics (Prometheus text) and GET
 * /gate (JSON).
 */
final class GateEndpoint {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private final String base;

  GateEndpoint(int port) {
    this.base = "http://127.0.0.1:" + port;
  }

  String metrics() throws IOException, InterruptedException {
    return get("/metrics");
  }

  JsonNode gate() throws IOException, InterruptedException {
    return JSON.readTree(get("/gate"));
  }

  /**
   * The sum of every sample of {@code name} whose labels contain each of {@code labelParts} (e.g.
   * decision="ADMIT").
   */
  double sum(String name, String... labelParts) throws IOException, InterruptedException {
    return sumIn(metrics(), name, labelParts);
  }

  static double sumIn(String text, String name, String... labelParts) {
    double total = 0;
    Matcher m =
        Pattern.compile("(?m)^" + Pattern.quote(name) + "(\\{[^}]*})? (\\S+)$").matcher(text);
    boolean found = false;
    while (m.find()) {
      String labels = m.group(1) == null ? "" : m.group(1);
      boolean all = true;
      for (String p : labelParts) {
        all &= labels.contains(p);
      }
      if (all) {
        total += Double.parseDouble(m.group(2));
        found = true;
      }
    }
    if (!found) {
      throw new AssertionError(
          "no sample " + name + " with " + String.join(",", labelParts) + " in:\n" + text);
    }
    return total;
  }

  private String get(String path) throws IOException, InterruptedException {
    HttpResponse<String> r =
        HTTP.send(
            HttpRequest.newBuilder(URI.create(base + path))
                .timeout(Duration.ofSeconds(10))
                .GET()
                .build(),
            HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() != 200) {
      throw new IOException("GET " + base + path + " -> HTTP " + r.statusCode());
    }
    return r.body();
  }
}
