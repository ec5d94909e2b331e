package io.sluice.tuner.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.tuner.testing.TestCredentials;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * TLS through Spring Boot's {@code server.ssl.*} with a self-signed PKCS12 keystore made here by
 * the JDK's keytool: the API answers over https to a client that trusts the certificate, and plain
 * http is not served.
 */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {"server.address=127.0.0.1", "sluice.test.context=TlsITCase"})
class TlsITCase {
  static final String PASSWORD = "tls-test-" + Long.toHexString(System.nanoTime());
  static final Path KEYSTORE = keystore();

  @LocalServerPort int port;

  static Path keystore() {
    try {
      Path dir = Files.createTempDirectory("sluice-tls-");
      Path ks = dir.resolve("tuner.p12");
      Process p =
          new ProcessBuilder(
                  Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                  "-genkeypair",
                  "-alias",
                  "tuner",
                  "-keyalg",
                  "RSA",
                  "-keysize",
                  "2048",
                  "-validity",
                  "2",
                  "-dname",
                  "CN=127.0.0.1",
                  "-ext",
                  "SAN=ip:127.0.0.1",
                  "-storetype",
                  "PKCS12",
                  "-keystore",
                  ks.toString(),
                  "-storepass",
                  PASSWORD,
                  "-keypass",
                  PASSWORD)
              .redirectErrorStream(true)
              .start();
      String out = new String(p.getInputStream().readAllBytes());
      if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
        throw new IllegalStateException("keytool failed: " + out);
      }
      return ks;
    } catch (IOException | InterruptedException e) {
      throw new IllegalStateException(e);
    }
  }

  @DynamicPropertySource
  static void ssl(DynamicPropertyRegistry r) {
    r.add("server.ssl.enabled", () -> "true");
    r.add("server.ssl.key-store", () -> KEYSTORE.toString());
    r.add("server.ssl.key-store-type", () -> "PKCS12");
    r.add("server.ssl.key-store-password", () -> PASSWORD);
    r.add("server.ssl.key-alias", () -> "tuner");
    r.add(
        "sluice.tuner.store-url",
        () -> "jdbc:h2:file:" + KEYSTORE.getParent().resolve("history").toAbsolutePath());
  }

  @Test
  void theApiAnswersOverTlsAndNotInPlainText() throws Exception {
    KeyStore trust = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(KEYSTORE)) {
      trust.load(in, PASSWORD.toCharArray());
    }
    TrustManagerFactory tmf =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(trust);
    SSLContext ssl = SSLContext.getInstance("TLS");
    ssl.init(null, tmf.getTrustManagers(), null);
    HttpClient https =
        HttpClient.newBuilder().sslContext(ssl).connectTimeout(Duration.ofSeconds(5)).build();
    HttpResponse<String> me =
        https.send(
            HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + port + "/api/v1/me"))
                .header("Authorization", TestCredentials.ADMIN)
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(me.statusCode()).isEqualTo(200);
    assertThat(me.body()).contains("\"user\":\"admin\"");

    HttpClient plain = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    assertThatThrownBy(
            () -> {
              HttpResponse<String> r =
                  plain.send(
                      HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/v1/me"))
                          .timeout(Duration.ofSeconds(10))
                          .header("Authorization", TestCredentials.ADMIN)
                          .build(),
                      HttpResponse.BodyHandlers.ofString());
              if (r.statusCode() != 200) {
                throw new IOException("plain http answered " + r.statusCode());
              }
            })
        .isInstanceOf(IOException.class);
  }
}
