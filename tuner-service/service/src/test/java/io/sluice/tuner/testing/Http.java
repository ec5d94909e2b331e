package io.sluice.tuner.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * A tiny loopback HTTP client for the API tests. GET, POST and the one-argument DELETE send the
 * client's {@code Authorization} ({@link TestCredentials#ADMIN} unless {@link #as} chose another,
 * none after {@code as(null)}); PUT and DELETE with an {@code authorization} argument send exactly
 * that (none when null).
 */
public final class Http {
  public static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient CLIENT =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  /** An answer: status, body, the raw response (headers) and how long it took. */
  public record Answer(int status, String body, HttpResponse<String> raw, long elapsedMs) {
    public JsonNode json() {
      try {
        return JSON.readTree(body);
      } catch (IOException e) {
        throw new AssertionError("not JSON: " + body, e);
      }
    }
  }

  private final int port;
  private final String authorization;

  public Http(int port) {
    this(port, TestCredentials.ADMIN);
  }

  private Http(int port, String authorization) {
    this.port = port;
    this.authorization = authorization;
  }

  /** The same client sending {@code authorization} (none when null). */
  public Http as(String authorization) {
    return new Http(port, authorization);
  }

  public Answer get(String path) {
    return send(authorized(HttpRequest.newBuilder(uri(path)).GET(), authorization));
  }

  public Answer post(String path, String json) {
    return send(
        authorized(
            HttpRequest.newBuilder(uri(path))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)),
            authorization));
  }

  public Answer post(String path) {
    return send(
        authorized(
            HttpRequest.newBuilder(uri(path)).POST(HttpRequest.BodyPublishers.noBody()),
            authorization));
  }

  /** DELETE with the client's authorization. */
  public Answer delete(String path) {
    return delete(path, authorization);
  }

  /** Any method, with the client's authorization and an optional JSON body. */
  public Answer send(String method, String path, String json) {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(uri(path))
            .method(
                method,
                json == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(json));
    if (json != null) {
      b.header("Content-Type", "application/json");
    }
    return send(authorized(b, authorization));
  }

  /** PUT with a JSON body; {@code authorization} (e.g. {@code Bearer t}) is sent when not null. */
  public Answer put(String path, String authorization, String json) {
    return send(
        authorized(
            HttpRequest.newBuilder(uri(path))
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(json)),
            authorization));
  }

  /** DELETE; {@code authorization} is sent when not null. */
  public Answer delete(String path, String authorization) {
    return send(authorized(HttpRequest.newBuilder(uri(path)).DELETE(), authorization));
  }

  private static HttpRequest.Builder authorized(HttpRequest.Builder b, String authorization) {
    return authorization == null ? b : b.header("Authorization", authorization);
  }

  private URI uri(String path) {
    return URI.create("http://127.0.0.1:" + port + path);
  }

  private static Answer send(HttpRequest.Builder b) {
    long t0 = System.nanoTime();
    try {
      HttpResponse<String> r =
          CLIENT.send(
              b.timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
      return new Answer(r.statusCode(), r.body(), r, (System.nanoTime() - t0) / 1_000_000);
    } catch (IOException | InterruptedException e) {
      throw new AssertionError("request failed: " + e, e);
    }
  }
}
