package io.sluice.tuner.security;

import java.util.Map;
import org.springframework.security.core.authority.SimpleGrantedAuthority;
import org.springframework.security.oauth2.core.DefaultOAuth2AuthenticatedPrincipal;
import org.springframework.security.oauth2.core.OAuth2AuthenticatedPrincipal;
import org.springframework.security.oauth2.server.resource.introspection.BadOpaqueTokenException;
import org.springframework.security.oauth2.server.resource.introspection.OpaqueTokenIntrospector;

/**
 * Bearer tokens of the tokens file, checked as opaque tokens by Spring Security's resource server
 * support.
 */
final class StaticTokenIntrospector implements OpaqueTokenIntrospector {
  private final Credentials credentials;

  StaticTokenIntrospector(Credentials credentials) {
    this.credentials = credentials;
  }

  @Override
  public OAuth2AuthenticatedPrincipal introspect(String token) {
    Credentials.Token t =
        credentials
            .token(token)
            .orElseThrow(
                () ->
                    new BadOpaqueTokenException(
                        "the bearer token is not a configured sluice token"));
    return new DefaultOAuth2AuthenticatedPrincipal(
        t.principal(),
        Map.of("sub", t.principal()),
        t.roles().stream()
            .<org.springframework.security.core.GrantedAuthority>map(
                r -> new SimpleGrantedAuthority(r.authority()))
            .toList());
  }
}
