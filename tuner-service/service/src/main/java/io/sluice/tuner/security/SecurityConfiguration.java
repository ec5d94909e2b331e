package io.sluice.tuner.security;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.tuner.api.BodySizeLimit;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.security.access.hierarchicalroles.RoleHierarchy;
import org.springframework.security.access.hierarchicalroles.RoleHierarchyImpl;
import org.springframework.security.authentication.AuthenticationManager;
import org.springframework.security.authentication.AuthenticationManagerResolver;
import org.springframework.security.authentication.ProviderManager;
import org.springframework.security.authentication.dao.DaoAuthenticationProvider;
import org.springframework.security.authorization.AuthorityAuthorizationManager;
import org.springframework.security.authorization.AuthorizationManager;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configurers.AuthorizeHttpRequestsConfigurer;
import org.springframework.security.config.observation.SecurityObservationSettings;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.core.userdetails.UsernameNotFoundException;
import org.springframework.security.crypto.factory.PasswordEncoderFactories;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.server.resource.authentication.JwtAuthenticationProvider;
import org.springframework.security.oauth2.server.resource.authentication.OpaqueTokenAuthenticationProvider;
import org.springframework.security.web.AuthenticationEntryPoint;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.access.AccessDeniedHandler;
import org.springframework.security.web.access.intercept.RequestAuthorizationContext;
import org.springframework.security.web.context.HttpSessionSecurityContextRepository;
import org.springframework.security.web.csrf.CookieCsrfTokenRepository;
import org.springframework.security.web.csrf.CsrfTokenRequestAttributeHandler;
import org.springframework.security.web.csrf.CsrfTokenRequestHandler;
import org.springframework.security.web.savedrequest.NullRequestCache;
import org.springframework.security.web.util.matcher.RequestMatcher;

/**
 * tuner-service's access rules, in one place. Deny by default: a request no rule below names is
 * refused (403 when signed in, 401 when not), so a new endpoint must be added here and to the
 * authorisation matrix test. Callers sign in with a static bearer token, a JWT (mode OIDC), HTTP
 * Basic, or a browser session ({@code POST /api/v1/session}); unsafe requests of a browser session
 * need the {@code XSRF-TOKEN} cookie's value in {@code X-XSRF-TOKEN}.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(SecurityProperties.class)
class SecurityConfiguration {
  /** ADMIN includes OPERATOR and REPORTER, OPERATOR includes VIEWER. */
  static final String HIERARCHY =
      """
      ROLE_ADMIN > ROLE_OPERATOR
      ROLE_ADMIN > ROLE_REPORTER
      ROLE_OPERATOR > ROLE_VIEWER
      """;

  @Bean
  Credentials credentials(SecurityProperties props) {
    return CredentialSources.load(props);
  }

  /**
   * No observations of the security filters, authentications or authorisations. Turning their
   * observations off by name still wraps each of the chain's filters in an observing decorator on
   * every request; without these settings the chain runs undecorated. {@code http.server.requests}
   * still times every request.
   */
  @Bean
  SecurityObservationSettings securityObservations() {
    return SecurityObservationSettings.noObservations();
  }

  @Bean
  RoleHierarchy roleHierarchy() {
    return RoleHierarchyImpl.fromHierarchy(HIERARCHY);
  }

  @Bean
  PasswordEncoder passwordEncoder() {
    return PasswordEncoderFactories.createDelegatingPasswordEncoder();
  }

  @Bean
  UserDetailsService userDetailsService(Credentials credentials) {
    return name ->
        credentials
            .user(name)
            .map(SluiceUserDetails::new)
            .orElseThrow(() -> new UsernameNotFoundException("no such user"));
  }

  /** Checks user names and passwords (HTTP Basic and the browser login). */
  @Bean
  AuthenticationManager authenticationManager(UserDetailsService users, PasswordEncoder encoder) {
    DaoAuthenticationProvider dao = new DaoAuthenticationProvider(users);
    dao.setPasswordEncoder(encoder);
    return new ProviderManager(dao);
  }

  @Bean
  HttpSessionSecurityContextRepository sessionContexts() {
    return new HttpSessionSecurityContextRepository();
  }

  @Bean
  SecurityFilterChain api(
      HttpSecurity http,
      SecurityProperties props,
      Credentials credentials,
      AuthenticationManager passwords,
      ObjectProvider<JwtDecoder> jwtDecoder,
      RoleHierarchy hierarchy,
      ObjectMapper json)
      throws Exception {
    ApiErrorWriter errors = new ApiErrorWriter(json);
    AuthenticationEntryPoint unauthorized =
        (req, res, e) -> {
          // a Bearer challenge, never a Basic one: browsers must not prompt and then replay cached
          // Basic credentials
          res.setHeader("WWW-Authenticate", "Bearer realm=\"sluice\"");
          errors.write(
              req,
              res,
              HttpStatus.UNAUTHORIZED,
              "authentication required: a bearer token, HTTP Basic or a "
                  + "session (POST /api/v1/session)"
                  + (e == null || e.getMessage() == null ? "" : " (" + e.getMessage() + ")"));
        };
    AccessDeniedHandler forbidden =
        (req, res, e) -> {
          org.springframework.security.core.Authentication auth =
              org.springframework.security.core.context.SecurityContextHolder.getContext()
                  .getAuthentication();
          if (auth == null
              || auth
                  instanceof
                  org.springframework.security.authentication.AnonymousAuthenticationToken) {
            unauthorized.commence(
                req, res,
                null); // e.g. a missing CSRF token of a request with no credentials at all
          } else if (e instanceof org.springframework.security.web.csrf.CsrfException) {
            errors.write(
                req,
                res,
                HttpStatus.FORBIDDEN,
                "a browser session's "
                    + req.getMethod()
                    + " needs the "
                    + "XSRF-TOKEN cookie's value in the X-XSRF-TOKEN header");
          } else {
            errors.write(
                req,
                res,
                HttpStatus.FORBIDDEN,
                "not allowed for this principal: " + req.getMethod() + " " + req.getRequestURI());
          }
        };
    AuthenticationManagerResolver<HttpServletRequest> bearer =
        bearerManagers(props, credentials, jwtDecoder);

    CsrfTokenRequestHandler csrfHandler = csrfHandler();
    http.authorizeHttpRequests(a -> rules(a, new Access(hierarchy)))
        .httpBasic(b -> b.authenticationEntryPoint(unauthorized))
        .oauth2ResourceServer(
            o ->
                o.authenticationManagerResolver(bearer)
                    .authenticationEntryPoint(unauthorized)
                    .accessDeniedHandler(forbidden))
        .authenticationManager(passwords)
        .csrf(
            c ->
                c.csrfTokenRepository(CookieCsrfTokenRepository.withHttpOnlyFalse())
                    .csrfTokenRequestHandler(csrfHandler)
                    .ignoringRequestMatchers(headerCredentials(), SessionController.LOGIN))
        .exceptionHandling(
            e -> e.authenticationEntryPoint(unauthorized).accessDeniedHandler(forbidden))
        .requestCache(c -> c.requestCache(new NullRequestCache()))
        .formLogin(f -> f.disable())
        .logout(l -> l.disable())
        .addFilterBefore(
            new BodySizeLimit(
                props.maxBodySize().toBytes(),
                (req, res, m) -> errors.write(req, res, HttpStatus.PAYLOAD_TOO_LARGE, m)),
            org.springframework.security.web.context.SecurityContextHolderFilter.class);
    return http.build();
  }

  /**
   * The rules, most specific first. Reads of the API need VIEWER (REPORTER alone reads only the
   * priority map); writes name their role.
   */
  private static void rules(
      AuthorizeHttpRequestsConfigurer<HttpSecurity>.AuthorizationManagerRequestMatcherRegistry a,
      Access role) {
    a.dispatcherTypeMatchers(DispatcherType.ERROR, DispatcherType.ASYNC)
        .permitAll()
        // public: the UI's static files, health, the API description, signing in and out
        .requestMatchers(HttpMethod.GET, "/", "/ui", "/ui/**", "/favicon.ico")
        .permitAll()
        .requestMatchers(HttpMethod.GET, "/actuator/health", "/actuator/health/**")
        .permitAll()
        .requestMatchers(
            HttpMethod.GET,
            "/v3/api-docs",
            "/v3/api-docs.yaml",
            "/v3/api-docs/**",
            "/swagger-ui.html",
            "/swagger-ui/**")
        .permitAll()
        .requestMatchers(HttpMethod.POST, "/api/v1/session")
        .permitAll()
        .requestMatchers(HttpMethod.DELETE, "/api/v1/session")
        .permitAll()
        .requestMatchers(HttpMethod.GET, "/api/v1/me")
        .authenticated()
        // machine callers
        .requestMatchers(
            HttpMethod.POST, "/api/v1/submissions", "/api/v1/submissions/launch-failures")
        .access(role.any(Role.REPORTER))
        .requestMatchers(HttpMethod.POST, "/api/v1/throttle/apps")
        .access(role.any(Role.REPORTER))
        .requestMatchers(HttpMethod.POST, "/api/v1/tiers/outcomes")
        .access(role.any(Role.REPORTER))
        .requestMatchers(HttpMethod.GET, "/api/v1/throttle/priorities")
        .access(role.any(Role.REPORTER, Role.VIEWER))
        // operators (queue limits are checked by the controller, which knows the job's queue)
        .requestMatchers(
            HttpMethod.POST, "/api/v1/jobs/freeze", "/api/v1/jobs/unfreeze", "/api/v1/jobs/trial")
        .access(role.any(Role.OPERATOR))
        .requestMatchers(HttpMethod.DELETE, "/api/v1/jobs/trial")
        .access(role.any(Role.OPERATOR))
        // admins
        .requestMatchers(HttpMethod.PUT, "/api/v1/tiers/rules/*", "/api/v1/tiers/denies/*")
        .access(role.any(Role.ADMIN))
        .requestMatchers(HttpMethod.DELETE, "/api/v1/tiers/rules/*", "/api/v1/tiers/denies/*")
        .access(role.any(Role.ADMIN))
        // reads (a POST that records nothing counts as one)
        .requestMatchers(HttpMethod.POST, "/api/v1/tiers/preview")
        .access(role.any(Role.VIEWER))
        .requestMatchers(HttpMethod.GET, "/api/v1/**")
        .access(role.any(Role.VIEWER))
        .requestMatchers(
            HttpMethod.GET,
            "/actuator/prometheus",
            "/actuator/info",
            "/actuator/metrics",
            "/actuator/metrics/**")
        .access(role.any(Role.VIEWER))
        .anyRequest()
        .denyAll();
  }

  /** Role checks that know the hierarchy. */
  record Access(RoleHierarchy hierarchy) {
    AuthorizationManager<RequestAuthorizationContext> any(Role... roles) {
      AuthorityAuthorizationManager<RequestAuthorizationContext> m =
          AuthorityAuthorizationManager.hasAnyRole(
              java.util.Arrays.stream(roles).map(Role::name).toArray(String[]::new));
      m.setRoleHierarchy(hierarchy);
      return m;
    }
  }

  /**
   * Browser requests load the CSRF token on every request, so the XSRF-TOKEN cookie is set for the
   * UI; requests that carry their own credentials leave it deferred: they need no token, and making
   * one costs a {@link java.security.SecureRandom} draw (one lock shared by every request thread)
   * and a cookie on every API answer.
   */
  private static CsrfTokenRequestHandler csrfHandler() {
    CsrfTokenRequestAttributeHandler eager = new CsrfTokenRequestAttributeHandler();
    eager.setCsrfRequestAttributeName(null);
    CsrfTokenRequestAttributeHandler deferred = new CsrfTokenRequestAttributeHandler();
    RequestMatcher ownCredentials = headerCredentials();
    return new CsrfTokenRequestHandler() {
      @Override
      public void handle(
          HttpServletRequest req,
          jakarta.servlet.http.HttpServletResponse res,
          java.util.function.Supplier<org.springframework.security.web.csrf.CsrfToken> token) {
        (ownCredentials.matches(req) ? deferred : eager).handle(req, res, token);
      }

      @Override
      public String resolveCsrfTokenValue(
          HttpServletRequest req, org.springframework.security.web.csrf.CsrfToken token) {
        return eager.resolveCsrfTokenValue(req, token);
      }
    };
  }

  /** Requests that carry their own credentials (no cookie involved): no CSRF token needed. */
  private static RequestMatcher headerCredentials() {
    return req -> {
      String h = req.getHeader("Authorization");
      return h != null
          && (h.regionMatches(true, 0, "Bearer ", 0, 7)
              || h.regionMatches(true, 0, "Basic ", 0, 6));
    };
  }

  /**
   * Static tokens always; JWTs (three dot-separated parts) through the JWT decoder in mode OIDC.
   */
  private static AuthenticationManagerResolver<HttpServletRequest> bearerManagers(
      SecurityProperties props, Credentials credentials, ObjectProvider<JwtDecoder> jwtDecoder) {
    AuthenticationManager tokens =
        new ProviderManager(
            new OpaqueTokenAuthenticationProvider(new StaticTokenIntrospector(credentials)));
    if (props.mode() != SecurityProperties.Mode.OIDC) {
      return req -> tokens;
    }
    JwtDecoder decoder = jwtDecoder.getIfAvailable();
    if (decoder == null) {
      throw new IllegalStateException(
          "sluice.security.mode=oidc needs "
              + "spring.security.oauth2.resourceserver.jwt.issuer-uri or spring.security.oauth2.resourceserver.jwt.jwk-set-uri");
    }
    JwtAuthenticationProvider jwtProvider = new JwtAuthenticationProvider(decoder);
    jwtProvider.setJwtAuthenticationConverter(new JwtRoles(props.oidc()));
    AuthenticationManager jwts = new ProviderManager(jwtProvider);
    return req -> {
      String h = req.getHeader("Authorization");
      String token = h == null || h.length() < 7 ? "" : h.substring(7).trim();
      return token.chars().filter(c -> c == '.').count() == 2 ? jwts : tokens;
    };
  }
}
