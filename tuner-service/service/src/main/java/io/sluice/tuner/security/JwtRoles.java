package io.sluice.tuner.security;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.springframework.core.convert.converter.Converter;
import org.springframework.security.authentication.AbstractAuthenticationToken;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.core.authority.SimpleGrantedAuthority;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.server.resource.authentication.JwtAuthenticationToken;

/**
 * An OIDC access token (JWT) as a caller: the user from {@code sluice.security.oidc.user-claim}
 * (else {@code sub}), the roles from {@code roles-claim} (names of {@link Role}, any case; others
 * ignored), the queues from {@code queues-claim}.
 */
final class JwtRoles implements Converter<Jwt, AbstractAuthenticationToken> {
  private final SecurityProperties.Oidc oidc;

  JwtRoles(SecurityProperties.Oidc oidc) {
    this.oidc = oidc;
  }

  @Override
  public AbstractAuthenticationToken convert(Jwt jwt) {
    List<GrantedAuthority> authorities = new ArrayList<>();
    for (String r : strings(jwt.getClaims().get(oidc.rolesClaim()))) {
      try {
        authorities.add(new SimpleGrantedAuthority(Role.parse(r).authority()));
      } catch (IllegalArgumentException e) {
        // a role of the IdP that is not Sluice's: ignored
      }
    }
    String user = jwt.getClaimAsString(oidc.userClaim());
    Map<String, Object> claims = new java.util.LinkedHashMap<>(jwt.getClaims());
    claims.put(Caller.QUEUES, strings(jwt.getClaims().get(oidc.queuesClaim())));
    Jwt withQueues =
        new Jwt(
            jwt.getTokenValue(), jwt.getIssuedAt(), jwt.getExpiresAt(), jwt.getHeaders(), claims);
    return new JwtAuthenticationToken(
        withQueues, authorities, user == null || user.isBlank() ? jwt.getSubject() : user);
  }

  private static List<String> strings(Object claim) {
    List<String> out = new ArrayList<>();
    if (claim instanceof Collection<?> c) {
      c.forEach(x -> out.add(String.valueOf(x)));
    } else if (claim instanceof String s) {
      for (String x : s.split("[,\\s]+")) {
        if (!x.isBlank()) {
          out.add(x);
        }
      }
    }
    return out;
  }
}
