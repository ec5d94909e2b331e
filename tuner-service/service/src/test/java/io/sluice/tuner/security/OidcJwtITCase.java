package io.sluice.tuner.security;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpServer;
import io.sluice.tuner.testing.Http;
import io.sluice.tuner.testing.ServiceOnH2;
import io.sluice.tuner.testing.TestCredentials;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Mode OIDC against a JWK set served on loopback by the test, with JWTs signed by a key made here:
 * roles and the user come from the claims, a foreign signature or an expired token is 401, static
 * tokens still work.
 */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {"server.address=127.0.0.1", "sluice.security.mode=OIDC"})
class OidcJwtITCase extends ServiceOnH2 {
  static final RSAKey KEY = key("idp-key");
  static final RSAKey OTHER = key("someone-else");
  static final HttpServer JWKS = jwks();

  static RSAKey key(String id) {
    try {
      return new RSAKeyGenerator(2048).keyID(id).generate();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  static HttpServer jwks() {
    try {
      HttpServer s =
          HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
      byte[] body = new JWKSet(KEY.toPublicJWK()).toString().getBytes(StandardCharsets.UTF_8);
      s.createContext(
          "/jwks",
          ex -> {
            ex.getResponseHeaders().add("Content-Type", "application/json");
            ex.sendResponseHeaders(200, body.length);
            try (OutputStream o = ex.getResponseBody()) {
              o.write(body);
            }
          });
      s.start();
      return s;
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  @DynamicPropertySource
  static void issuer(DynamicPropertyRegistry r) {
    r.add(
        "spring.security.oauth2.resourceserver.jwt.jwk-set-uri",
        () -> "http://127.0.0.1:" + JWKS.getAddress().getPort() + "/jwks");
  }

  @AfterAll
  static void stop() {
    JWKS.stop(0);
  }

  static String jwt(RSAKey signer, String user, List<String> roles, Instant expires)
      throws Exception {
    SignedJWT j =
        new SignedJWT(
            new JWSHeader.Builder(JWSAlgorithm.RS256)
                .keyID(signer.getKeyID())
                .type(JOSEObjectType.JWT)
                .build(),
            new JWTClaimsSet.Builder()
                .subject("sub-" + user)
                .claim("preferred_username", user)
                .claim("roles", roles)
                .claim("sluice_queues", List.of("root.etl"))
                .issueTime(Date.from(Instant.now().minusSeconds(60)))
                .expirationTime(Date.from(expires))
                .build());
    j.sign(new RSASSASigner(signer));
    return "Bearer " + j.serialize();
  }

  @Test
  void aSignedJwtSignsInWithItsRolesAndOthersAreRefused() throws Exception {
    Instant later = Instant.now().plusSeconds(600);
    Http.Answer me =
        http.as(jwt(KEY, "oidc-alice", List.of("operator", "some-idp-role"), later))
            .get("/api/v1/me");
    assertThat(me.status()).as(me.body()).isEqualTo(200);
    JsonNode j = me.json();
    assertThat(j.get("user").asText()).isEqualTo("oidc-alice");
    assertThat(j.get("roles").toString()).isEqualTo("[\"VIEWER\",\"OPERATOR\"]");
    assertThat(j.get("queues").toString()).isEqualTo("[\"root.etl\"]");

    Http viewer = http.as(jwt(KEY, "oidc-vera", List.of("VIEWER"), later));
    assertThat(viewer.get("/api/v1/tiers/rules").status()).isEqualTo(200);
    assertThat(viewer.post("/api/v1/jobs/freeze?jobKey=oidc-job").status()).isEqualTo(403);

    assertThat(http.as(jwt(OTHER, "mallory", List.of("ADMIN"), later)).get("/api/v1/me").status())
        .isEqualTo(401);
    assertThat(
            http.as(jwt(KEY, "late", List.of("ADMIN"), Instant.now().minusSeconds(120)))
                .get("/api/v1/me")
                .status())
        .isEqualTo(401);
    // the tokens file still serves machine callers
    assertThat(http.as(TestCredentials.REPORTER).get("/api/v1/throttle/priorities").status())
        .isEqualTo(200);
  }
}
