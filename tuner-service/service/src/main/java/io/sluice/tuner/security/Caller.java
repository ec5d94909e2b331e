package io.sluice.tuner.security;

import java.util.Collection;
import java.util.EnumSet;
import java.util.Set;
import java.util.TreeSet;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.oauth2.core.OAuth2AuthenticatedPrincipal;

/**
 * Who is calling, whatever the way in (Basic, browser session, static token, JWT): the name, the
 * roles it holds (with the ones they include: ADMIN holds OPERATOR and VIEWER) and the queues an
 * OPERATOR is limited to (empty: every queue).
 */
public record Caller(String name, Set<Role> roles, Set<String> queues) {
  /** The attribute of a token or JWT principal that carries the queues. */
  public static final String QUEUES = "sluice_queues";

  /** The caller of the current request, or an anonymous one. */
  public static Caller current() {
    return of(SecurityContextHolder.getContext().getAuthentication());
  }

  /** The caller behind an authentication (anonymous when null or not authenticated). */
  public static Caller of(Authentication auth) {
    if (auth == null
        || !auth.isAuthenticated()
        || auth.getPrincipal() == null
        || "anonymousUser".equals(auth.getPrincipal())) {
      return new Caller("anonymous", Set.of(), Set.of());
    }
    return new Caller(auth.getName(), roles(auth.getAuthorities()), queues(auth.getPrincipal()));
  }

  public boolean has(Role role) {
    return roles.contains(role);
  }

  /**
   * True when this caller may change jobs of {@code queue}: ADMIN, or OPERATOR of every queue or of
   * this one.
   */
  public boolean operates(String queue) {
    if (has(Role.ADMIN)) {
      return true;
    }
    return has(Role.OPERATOR) && (queues.isEmpty() || (queue != null && queues.contains(queue)));
  }

  /** The held roles with the ones they include. */
  static Set<Role> roles(Collection<? extends GrantedAuthority> authorities) {
    Set<Role> out = EnumSet.noneOf(Role.class);
    for (GrantedAuthority a : authorities) {
      String s = a.getAuthority();
      if (s != null && s.startsWith("ROLE_")) {
        try {
          out.add(Role.valueOf(s.substring(5)));
        } catch (IllegalArgumentException e) {
          // not one of ours (e.g. an IdP's own role): ignored
        }
      }
    }
    if (out.contains(Role.ADMIN)) {
      out.addAll(EnumSet.of(Role.OPERATOR, Role.VIEWER, Role.REPORTER));
    }
    if (out.contains(Role.OPERATOR)) {
      out.add(Role.VIEWER);
    }
    return Set.copyOf(out);
  }

  private static Set<String> queues(Object principal) {
    Object q = null;
    if (principal instanceof SluiceUserDetails u) {
      return u.queues();
    }
    if (principal instanceof OAuth2AuthenticatedPrincipal p) {
      q = p.getAttribute(QUEUES);
    } else if (principal instanceof org.springframework.security.oauth2.jwt.Jwt j) {
      q = j.getClaims().get(QUEUES);
    }
    Set<String> out = new TreeSet<>();
    if (q instanceof Collection<?> c) {
      c.forEach(x -> out.add(String.valueOf(x)));
    } else if (q instanceof String s) {
      for (String x : s.split("[,\\s]+")) {
        if (!x.isBlank()) {
          out.add(x);
        }
      }
    }
    return Set.copyOf(out);
  }
}
