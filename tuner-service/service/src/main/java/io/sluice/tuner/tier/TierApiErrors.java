package io.sluice.tuner.tier;

import io.sluice.tuner.api.ApiError;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * The tier API's failures as {@link ApiError}s: 400 naming the field, 404 for an unknown rule or
 * deny id, 503 while the rules are not loaded. Other failures (store unavailable, malformed JSON)
 * and authentication (401/403, the security filters) go to the service's common handlers.
 */
@RestControllerAdvice(assignableTypes = TierController.class)
@Order(Ordered.HIGHEST_PRECEDENCE)
class TierApiErrors {
  @ExceptionHandler(InvalidTierInput.class)
  ResponseEntity<ApiError> invalid(InvalidTierInput e, HttpServletRequest req) {
    return answer(HttpStatus.BAD_REQUEST, e.field(), e.getMessage(), req);
  }

  @ExceptionHandler(RuleBook.NotFound.class)
  ResponseEntity<ApiError> notFound(RuleBook.NotFound e, HttpServletRequest req) {
    return answer(HttpStatus.NOT_FOUND, "id", e.getMessage(), req);
  }

  @ExceptionHandler(RuleBook.NotLoaded.class)
  ResponseEntity<ApiError> notLoaded(RuleBook.NotLoaded e, HttpServletRequest req) {
    return answer(HttpStatus.SERVICE_UNAVAILABLE, null, e.getMessage(), req);
  }

  private static ResponseEntity<ApiError> answer(
      HttpStatus s, String field, String message, HttpServletRequest req) {
    return ResponseEntity.status(s)
        .body(new ApiError(s.value(), s.getReasonPhrase(), field, message, req.getRequestURI()));
  }
}
