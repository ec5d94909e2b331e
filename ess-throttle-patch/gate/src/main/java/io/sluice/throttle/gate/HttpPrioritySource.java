package io.sluice.throttle.gate;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

/**
 * Pulls the tuner-service's priority map: {@code GET <base>/api/v1/throttle/priorities} returning
 * {@code {"defaultPriority":N,"apps":[{"appId":..,"priority":N,"queue":..,"shim":bool}]}}. Any
 * non-200 status, a body that is not that JSON, a missing appId or a timeout makes {@link #fetch()}
 * throw (the caching map fails open).
 */
public final class HttpPrioritySource implements PrioritySource {
  /** The path under the tuner-service base URL. */
  public static final String PATH = "/api/v1/throttle/priorities";

  private static final ObjectMapper JSON =
      new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

  private final URI uri;
  private final Duration timeout;
  private final HttpClient client;
  private volatile OptionalInt defaultPriority = OptionalInt.empty();

  public HttpPrioritySource(String baseUrl, Duration timeout) {
    String base = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
    this.uri = URI.create(base + PATH);
    this.timeout = timeout;
    this.client =
        HttpClient.newBuilder()
            .connectTimeout(timeout)
            .followRedirects(HttpClient.Redirect.NEVER)
            .build();
  }

  /** From priority.url and priority.timeoutMs. */
  public static HttpPrioritySource fromConfig(GateConfig cfg) {
    String url = cfg.get(GateConfig.PRIORITY_URL);
    if (url.isEmpty()) {
      throw new IllegalArgumentException(GateConfig.PRIORITY_URL.key() + " is empty");
    }
    return new HttpPrioritySource(url, Duration.ofMillis(cfg.get(GateConfig.PRIORITY_TIMEOUT_MS)));
  }

  public URI uri() {
    return uri;
  }

  /**
   * The bearer token for tuner-service, provided by the platform: {@code SLUICE_TUNER_TOKEN}, else
   * the file named by {@code SLUICE_TUNER_TOKEN_FILE}, else the file named by the system property
   * {@code sluice.tuner.token-file} (read at each pull, so a rotated token is picked up). None: the
   * pull goes without credentials.
   */
  static java.util.Optional<String> token(Map<String, String> env, java.util.Properties system) {
    String direct = env.get("SLUICE_TUNER_TOKEN");
    if (direct != null && !direct.isBlank()) {
      return java.util.Optional.of(direct.strip());
    }
    String file =
        env.getOrDefault("SLUICE_TUNER_TOKEN_FILE", system.getProperty("sluice.tuner.token-file"));
    if (file == null || file.isBlank()) {
      return java.util.Optional.empty();
    }
    try {
      String t = java.nio.file.Files.readString(java.nio.file.Path.of(file.strip())).strip();
      return t.isEmpty() ? java.util.Optional.empty() : java.util.Optional.of(t);
    } catch (IOException e) {
      return java.util.Optional.empty();
    }
  }

  @JsonIgnoreProperties(ignoreUnknown = true)
  record Body(Integer defaultPriority, List<Entry> apps) {}

  @JsonIgnoreProperties(ignoreUnknown = true)
  record Entry(String appId, Integer priority, String queue, Boolean shim) {}

  @Override
  public Map<String, AppInfo> fetch() throws IOException, InterruptedException {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(uri).timeout(timeout).header("Accept", "application/json").GET();
    token(System.getenv(), System.getProperties())
        .ifPresent(t -> b.header("Authorization", "Bearer " + t));
    HttpRequest req = b.build();
    HttpResponse<byte[]> resp = client.send(req, HttpResponse.BodyHandlers.ofByteArray());
    if (resp.statusCode() != 200) {
      throw new IOException("GET " + uri + " returned HTTP " + resp.statusCode());
    }
    Body body;
    try {
      body = JSON.readValue(resp.body(), Body.class);
    } catch (IOException e) {
      throw new IOException(
          "GET " + uri + " returned a body that is not the priorities JSON: " + e.getMessage(), e);
    }
    if (body == null || body.apps() == null) {
      throw new IOException("GET " + uri + " returned no \"apps\" array");
    }
    Map<String, AppInfo> apps = new HashMap<>();
    for (Entry e : body.apps()) {
      if (e == null || e.appId() == null || e.appId().isEmpty() || e.priority() == null) {
        throw new IOException("GET " + uri + " returned an app without appId or priority: " + e);
      }
      apps.put(
          e.appId(),
          new AppInfo(e.appId(), e.priority(), e.queue(), Boolean.TRUE.equals(e.shim())));
    }
    defaultPriority =
        body.defaultPriority() == null
            ? OptionalInt.empty()
            : OptionalInt.of(body.defaultPriority());
    return apps;
  }

  @Override
  public OptionalInt defaultPriority() {
    return defaultPriority;
  }

  @Override
  public String toString() {
    return "tuner-service " + uri();
  }
}
