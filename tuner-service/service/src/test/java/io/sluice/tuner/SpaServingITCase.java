package io.sluice.tuner;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.tuner.testing.Http;
import io.sluice.tuner.testing.ServiceOnH2;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * The web UI's files at {@code /ui/} (a test index.html and asset on the test class path, where the
 * ui module's jar puts the real ones): deep links get index.html, assets are served with long
 * caching, missing assets are 404, the API keeps its own answers and {@code /} redirects to {@code
 * /ui/}.
 */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {"server.address=127.0.0.1", "spring.application.name=spa-serving-test"})
class SpaServingITCase extends ServiceOnH2 {
  private static final String INDEX_MARK = "<title>sluice test app</title>";

  private void assertIndex(String path) {
    Http.Answer a = http.get(path);
    assertThat(a.status()).as(path).isEqualTo(200);
    assertThat(a.body()).as(path).contains(INDEX_MARK);
    assertThat(a.raw().headers().firstValue("Content-Type").orElse(""))
        .as(path)
        .startsWith("text/html");
    assertThat(a.raw().headers().firstValue("Cache-Control").orElse(""))
        .as(path)
        .contains("no-cache");
  }

  @Test
  void theAppAndItsDeepLinksGetIndexHtml() {
    assertIndex("/ui/");
    assertIndex("/ui");
    assertIndex("/ui/jobs");
    assertIndex("/ui/job?jobKey=%3Cb%3Eetl%3C%2Fb%3E%2Fdaily");
    assertIndex("/ui/throttle/nodes/deep/link");
  }

  @Test
  void assetsAreServedAndMissingOnesAre404() {
    Http.Answer js = http.get("/ui/assets/app-test.js");
    assertThat(js.status()).isEqualTo(200);
    assertThat(js.body()).contains("sluice test asset");
    assertThat(js.raw().headers().firstValue("Content-Type").orElse("")).contains("javascript");
    assertThat(js.raw().headers().firstValue("Cache-Control").orElse(""))
        .contains("max-age=31536000");
    assertThat(http.get("/ui/assets/gone-1234.js").status()).isEqualTo(404);
    assertThat(http.get("/ui/favicon.ico").status()).isEqualTo(404);
  }

  @Test
  void theRootRedirectsToTheAppAndTheApiIsUntouched() {
    Http.Answer root = http.get("/");
    assertThat(root.status()).isEqualTo(302);
    assertThat(root.raw().headers().firstValue("Location").orElse("")).endsWith("/ui/");
    Http.Answer api = http.get("/api/v1/ui/nothing-here");
    assertThat(api.status()).isEqualTo(404);
    assertThat(api.body()).doesNotContain(INDEX_MARK);
    assertThat(http.get("/api/v1/ui/jobs").json().get("total").asLong()).isZero();
  }
}
