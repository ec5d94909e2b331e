package io.sluice.tuner.tier;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** A loopback HTTP client for the tier API tests. */
final class Api {
  static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  record Answer(int status, String body, HttpResponse<String> raw) {
    JsonNode json() {
      try {
        return JSON.readTree(body);
      } catch (IOException e) {
        throw new AssertionError("not JSON: " + body, e);
      }
    }
  }

  private final int port;

  Api(int port) {
    this.port = port;
  }

  Answer get(String path) {
    return send(HttpRequest.newBuilder(uri(path)).GET());
  }

  Answer post(String path, String json) {
    return send(HttpRequest.newBuilder(uri(path)).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(json)));
  }

  Answer put(String path, String authorization, String json) {
    HttpRequest.Builder b = HttpRequest.newBuilder(uri(path)).header("Content-Type", "application/json")
        .PUT(HttpRequest.BodyPublishers.ofString(json));
    if (authorization != null) {
      b.header("Authorization", authorization);
    }
    return send(b);
  }

  Answer delete(String path, String authorization) {
    HttpRequest.Builder b = HttpRequest.newBuilder(uri(path)).DELETE();
    if (authorization != null) {
      b.header("Authorization", authorization);
    }
    return send(b);
  }

  private URI uri(String path) {
    return URI.create("http://127.0.0.1:" + port + path);
  }

  private static Answer send(HttpRequest.Builder b) {
    try {
      HttpResponse<String> r = CLIENT.send(b.timeout(Duration.ofSeconds(30)).build(),
          HttpResponse.BodyHandlers.ofString());
      return new Answer(r.statusCode(), r.body(), r);
    } catch (IOException | InterruptedException e) {
      throw new AssertionError("request failed: " + e, e);
    }
  }
}
