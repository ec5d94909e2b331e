package io.sluice.tuner.security;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The static users and bearer tokens, parsed from the users/tokens line formats (see {@link
 * SecurityProperties}). Pure: a bad line fails with its source and line number and never echoes a
 * secret. Tokens are kept only as SHA-256 digests and compared in constant time.
 */
public final class Credentials {
  /**
   * A user of HTTP Basic and the browser login; {@code password} is in Spring's {@code {id}value}
   * form.
   */
  public record User(String name, String password, Set<Role> roles, Set<String> queues) {}

  /** A bearer token's holder. */
  public record Token(String principal, Set<Role> roles, byte[] sha256) {}

  private static final String SHA256 = "{sha256}";

  private final Map<String, User> users;
  private final List<Token> tokens;

  private Credentials(Map<String, User> users, List<Token> tokens) {
    this.users = Map.copyOf(users);
    this.tokens = List.copyOf(tokens);
  }

  /** An empty set of credentials. */
  public static Credentials none() {
    return new Credentials(Map.of(), List.of());
  }

  /** Adds the users of {@code text} (users-file format); {@code source} names it in errors. */
  public Credentials withUsers(String source, String text) {
    Map<String, User> all = new LinkedHashMap<>(users);
    int n = 0;
    for (String raw : text.split("\\R")) {
      n++;
      String line = raw.strip();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      String[] f = line.split(":", -1);
      if (f.length < 3 || f.length > 4 || f[0].isBlank() || f[1].isBlank()) {
        throw bad(
            source,
            n,
            "expected name:{bcrypt}HASH:ROLE[,ROLE...][:queue,...] (" + f.length + " fields)");
      }
      if (!f[1].startsWith("{")) {
        throw bad(source, n, "the password must name its encoding: {bcrypt}HASH or {noop}plain");
      }
      String name = f[0].strip();
      if (all.containsKey(name)) {
        throw bad(source, n, "user " + name + " is defined twice");
      }
      all.put(
          name,
          new User(name, f[1], roles(source, n, f[2]), f.length == 4 ? list(f[3]) : Set.of()));
    }
    return new Credentials(all, tokens);
  }

  /** Adds the tokens of {@code text} (tokens-file format); {@code source} names it in errors. */
  public Credentials withTokens(String source, String text) {
    List<Token> all = new ArrayList<>(tokens);
    int n = 0;
    for (String raw : text.split("\\R")) {
      n++;
      String line = raw.strip();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      String[] f = line.split(":", 3);
      if (f.length != 3 || f[0].isBlank() || f[2].isBlank()) {
        throw bad(
            source, n, "expected principal:ROLE[,ROLE...]:TOKEN or principal:ROLE:{sha256}HEX");
      }
      byte[] digest;
      if (f[2].regionMatches(true, 0, SHA256, 0, SHA256.length())) {
        String hex = f[2].substring(SHA256.length()).strip().toLowerCase(Locale.ROOT);
        if (!hex.matches("[0-9a-f]{64}")) {
          throw bad(source, n, "{sha256} must be followed by 64 hex digits");
        }
        digest = HexFormat.of().parseHex(hex);
      } else {
        digest = sha256(f[2].strip());
      }
      for (Token t : all) {
        if (MessageDigest.isEqual(t.sha256(), digest)) {
          throw bad(source, n, "this token is already given to " + t.principal());
        }
      }
      all.add(new Token(f[0].strip(), roles(source, n, f[1]), digest));
    }
    return new Credentials(users, all);
  }

  /** The user named {@code name}, if any. */
  public Optional<User> user(String name) {
    return Optional.ofNullable(users.get(name));
  }

  public Map<String, User> users() {
    return users;
  }

  public List<Token> tokens() {
    return tokens;
  }

  /**
   * The holder of a presented bearer token; every configured token is compared (constant time per
   * token).
   */
  public Optional<Token> token(String presented) {
    byte[] d = sha256(presented);
    Token found = null;
    for (Token t : tokens) {
      if (MessageDigest.isEqual(t.sha256(), d) && found == null) {
        found = t;
      }
    }
    return Optional.ofNullable(found);
  }

  /** The hex SHA-256 of a token, as the tokens file's {@code {sha256}} form wants it. */
  public static String sha256Hex(String token) {
    return HexFormat.of().formatHex(sha256(token));
  }

  private static byte[] sha256(String s) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static Set<Role> roles(String source, int line, String text) {
    Set<Role> roles = EnumSet.noneOf(Role.class);
    for (String r : text.split(",")) {
      if (r.isBlank()) {
        continue;
      }
      try {
        roles.add(Role.parse(r));
      } catch (IllegalArgumentException e) {
        throw bad(source, line, e.getMessage());
      }
    }
    if (roles.isEmpty()) {
      throw bad(source, line, "at least one role is required (VIEWER, OPERATOR, ADMIN, REPORTER)");
    }
    return Set.copyOf(roles);
  }

  private static Set<String> list(String text) {
    Set<String> out = new LinkedHashSet<>();
    for (String q : text.split(",")) {
      if (!q.isBlank()) {
        out.add(q.strip());
      }
    }
    return Set.copyOf(out);
  }

  private static IllegalArgumentException bad(String source, int line, String why) {
    return new IllegalArgumentException(source + " line " + line + ": " + why);
  }
}
