package io.sluice.tuner;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** A tiny loopback HTTP client for the API tests. */
final class Http {
  static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  record Answer(int status, String body, long elapsedMs) {
    JsonNode json() {
      try {
        return JSON.readTree(body);
      } catch (IOException e) {
        throw new AssertionError("not JSON: " + body, e);
      }
    }
  }

  private final int port;

  Http(int port) {
    this.port = port;
  }

  Answer get(String path) {
    return send(HttpRequest.newBuilder(uri(path)).GET());
  }

  Answer post(String path, String json) {
    return send(HttpRequest.newBuilder(uri(path)).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(json)));
  }

  Answer post(String path) {
    return send(HttpRequest.newBuilder(uri(path)).POST(HttpRequest.BodyPublishers.noBody()));
  }

  private URI uri(String path) {
    return URI.create("http://127.0.0.1:" + port + path);
  }

  private static Answer send(HttpRequest.Builder b) {
    long t0 = System.nanoTime();
    try {
      HttpResponse<String> r = CLIENT.send(b.timeout(Duration.ofSeconds(30)).build(),
          HttpResponse.BodyHandlers.ofString());
      return new Answer(r.statusCode(), r.body(), (System.nanoTime() - t0) / 1_000_000);
    } catch (IOException | InterruptedException e) {
      throw new AssertionError("request failed: " + e, e);
    }
  }
}
