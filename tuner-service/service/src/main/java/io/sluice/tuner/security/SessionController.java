package io.sluice.tuner.security;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.sluice.tuner.api.ApiError;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;
import java.util.List;
import java.util.TreeSet;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.security.authentication.AuthenticationManager;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.core.context.SecurityContext;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.web.authentication.logout.SecurityContextLogoutHandler;
import org.springframework.security.web.context.HttpSessionSecurityContextRepository;
import org.springframework.security.web.util.matcher.RequestMatcher;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/**
 * Browser sessions: {@code POST /api/v1/session} signs in with a users-file user (an HttpOnly
 * session cookie; the session id changes on sign-in), {@code DELETE /api/v1/session} signs out,
 * {@code GET /api/v1/me} says who is signed in (any way in) with the roles held and the queues an
 * operator is limited to.
 */
@RestController
class SessionController {
  static final RequestMatcher LOGIN =
      req ->
          "POST".equals(req.getMethod())
              && "/api/v1/session"
                  .equals(req.getRequestURI().substring(req.getContextPath().length()));

  /** A sign-in. */
  record Login(
      @NotBlank
          @Size(max = 128)
          @Schema(requiredMode = Schema.RequiredMode.REQUIRED, example = "alice")
          String username,
      @NotBlank @Size(max = 1024) @Schema(requiredMode = Schema.RequiredMode.REQUIRED)
          String password) {}

  /** Who is signed in. */
  @JsonPropertyOrder({"user", "roles", "queues"})
  record Me(String user, List<Role> roles, List<String> queues) {
    static Me of(Caller c) {
      return new Me(
          c.name(),
          new TreeSet<>(c.roles()).stream().toList(),
          new TreeSet<>(c.queues()).stream().toList());
    }
  }

  private final AuthenticationManager passwords;
  private final HttpSessionSecurityContextRepository contexts;

  SessionController(
      AuthenticationManager passwords, HttpSessionSecurityContextRepository contexts) {
    this.passwords = passwords;
    this.contexts = contexts;
  }

  @PostMapping("/api/v1/session")
  @Operation(
      summary =
          "Sign in a browser: 200 and an HttpOnly session cookie, 401 for a wrong name or password")
  ResponseEntity<?> login(
      @Valid @RequestBody Login login, HttpServletRequest req, HttpServletResponse res) {
    Authentication a;
    try {
      a =
          passwords.authenticate(
              UsernamePasswordAuthenticationToken.unauthenticated(
                  login.username().trim(), login.password()));
    } catch (AuthenticationException e) {
      HttpStatus s = HttpStatus.UNAUTHORIZED;
      return ResponseEntity.status(s)
          .body(
              new ApiError(
                  s.value(),
                  s.getReasonPhrase(),
                  null,
                  "wrong user name or password",
                  req.getRequestURI()));
    }
    HttpSession old = req.getSession(false);
    if (old != null) {
      old.invalidate(); // a new session id after sign-in (no fixation)
    }
    SecurityContext ctx = SecurityContextHolder.createEmptyContext();
    ctx.setAuthentication(a);
    SecurityContextHolder.setContext(ctx);
    contexts.saveContext(ctx, req, res);
    return ResponseEntity.ok(Me.of(Caller.of(a)));
  }

  @DeleteMapping("/api/v1/session")
  @Operation(summary = "Sign out (ends the browser session); 204 also when no one was signed in")
  ResponseEntity<Void> logout(HttpServletRequest req, HttpServletResponse res) {
    new SecurityContextLogoutHandler()
        .logout(req, res, SecurityContextHolder.getContext().getAuthentication());
    return ResponseEntity.noContent().build();
  }

  @GetMapping("/api/v1/me")
  @Operation(
      summary =
          "Who is signed in: user, roles held (with the ones they include) and an operator's queues")
  Me me() {
    return Me.of(Caller.current());
  }
}
