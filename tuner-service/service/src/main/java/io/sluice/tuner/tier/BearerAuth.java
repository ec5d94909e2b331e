package io.sluice.tuner.tier;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Map;

/**
 * Bearer-token check for rule changes: {@code Authorization: Bearer <token>} must carry one of the configured
 * tokens; the answer is the token's principal (what the audit records). No header, or not a bearer one:
 * {@link Unauthorized} (401). A bearer token that is not configured (or no tokens configured at all):
 * {@link Forbidden} (403). Tokens are compared in constant time.
 */
public final class BearerAuth {
  /** 401: no usable credentials. */
  public static final class Unauthorized extends RuntimeException {
    Unauthorized(String message) {
      super(message);
    }
  }

  /** 403: credentials given but not accepted. */
  public static final class Forbidden extends RuntimeException {
    Forbidden(String message) {
      super(message);
    }
  }

  private final Map<String, String> tokens;

  /** @param tokens principal → token */
  public BearerAuth(Map<String, String> tokens) {
    this.tokens = Map.copyOf(tokens);
  }

  public String principal(String authorization) {
    if (authorization == null || authorization.isBlank()) {
      throw new Unauthorized("rule changes need an Authorization: Bearer <token> header");
    }
    String h = authorization.trim();
    if (h.length() < 7 || !h.regionMatches(true, 0, "Bearer ", 0, 7) || h.substring(7).isBlank()) {
      throw new Unauthorized("the Authorization header must be Bearer <token>");
    }
    byte[] given = h.substring(7).trim().getBytes(StandardCharsets.UTF_8);
    String who = null;
    for (Map.Entry<String, String> e : tokens.entrySet()) {
      if (e.getValue() != null && !e.getValue().isBlank()
          && MessageDigest.isEqual(given, e.getValue().getBytes(StandardCharsets.UTF_8)) && who == null) {
        who = e.getKey();
      }
    }
    if (who == null) {
      throw new Forbidden(tokens.isEmpty() ? "rule changes are disabled: no sluice.tier.api-tokens configured"
          : "the bearer token is not allowed to change rules");
    }
    return who;
  }
}
