package io.sluice.throttle.yarn;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.throttle.gate.AppInfo;
import io.sluice.throttle.gate.PrioritySource;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Application priorities and queues from the YARN ResourceManager's REST API ({@code GET
 * <rm>/ws/v1/cluster/apps?states=RUNNING,ACCEPTED}): the fallback priority source where the
 * tuner-service does not know an application. YARN's application priority (an integer, higher is
 * more important, set at submission e.g. with {@code spark.yarn.priority}) is passed through as the
 * gate's priority; the gate's weight table ({@code sluice.throttle.priority.weights}) says what
 * each priority gets. No app ever has the shim flag from here.
 */
public final class YarnRmPrioritySource implements PrioritySource {
  /** The query under the RM's base URL. */
  public static final String PATH = "/ws/v1/cluster/apps?states=RUNNING,ACCEPTED";

  private static final ObjectMapper JSON = new ObjectMapper();

  private final URI uri;
  private final Duration timeout;
  private final HttpClient client;

  /**
   * @param rmBaseUrl e.g. {@code http://rm-host:8088}
   */
  public YarnRmPrioritySource(String rmBaseUrl, Duration timeout) {
    String base =
        rmBaseUrl.endsWith("/") ? rmBaseUrl.substring(0, rmBaseUrl.length() - 1) : rmBaseUrl;
    this.uri = URI.create(base + PATH);
    this.timeout = timeout;
    this.client =
        HttpClient.newBuilder()
            .connectTimeout(timeout)
            .followRedirects(HttpClient.Redirect.NEVER)
            .build();
  }

  public URI uri() {
    return uri;
  }

  @Override
  public Map<String, AppInfo> fetch() throws IOException, InterruptedException {
    HttpResponse<byte[]> r =
        client.send(
            HttpRequest.newBuilder(uri)
                .timeout(timeout)
                .header("Accept", "application/json")
                .GET()
                .build(),
            HttpResponse.BodyHandlers.ofByteArray());
    if (r.statusCode() != 200) {
      throw new IOException("GET " + uri + " answered HTTP " + r.statusCode());
    }
    return parse(JSON.readTree(r.body()));
  }

  /**
   * The apps of one RM answer: {@code {"apps":{"app":[{"id":..,"queue":..,"priority":N},..]}}};
   * {@code "apps":null} (no application) is an empty map. An app without a priority (RM before 2.8)
   * gets 0, YARN's default.
   */
  static Map<String, AppInfo> parse(JsonNode root) throws IOException {
    if (root == null || !root.has("apps")) {
      throw new IOException("not a ResourceManager apps answer: no \"apps\"");
    }
    Map<String, AppInfo> m = new LinkedHashMap<>();
    JsonNode apps = root.get("apps");
    if (apps.isNull() || apps.isEmpty()) {
      return m;
    }
    for (JsonNode a : apps.path("app")) {
      String id = a.path("id").asText(null);
      if (id == null || id.isEmpty()) {
        throw new IOException("an app without \"id\" in the ResourceManager's answer");
      }
      String queue = a.hasNonNull("queue") ? a.get("queue").asText() : null;
      m.put(id, new AppInfo(id, a.path("priority").asInt(0), queue, false));
    }
    return m;
  }

  @Override
  public String toString() {
    return "YARN ResourceManager " + uri();
  }
}
