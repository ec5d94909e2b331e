package io.sluice.tuner.api;

import com.fasterxml.jackson.databind.JsonMappingException;
import io.sluice.tuner.store.StoreGateway;
import jakarta.servlet.http.HttpServletRequest;
import java.util.stream.Collectors;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.validation.FieldError;
import org.springframework.web.bind.MethodArgumentNotValidException;
import org.springframework.web.bind.MissingServletRequestParameterException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;

/**
 * Maps failures to {@link ApiError}s: 400 naming the field, 404 for unknown items, 503 when the
 * store cannot answer (with {@code Retry-After}: the store's circuit breaker lets calls try the
 * store again after {@code sluice.tuner.breaker-open-wait}, in whole seconds).
 */
@RestControllerAdvice
class ApiErrors {
  private final String retryAfterSeconds;

  ApiErrors(io.sluice.tuner.TunerProperties props) {
    long ms = props.breakerOpenWait().toMillis();
    this.retryAfterSeconds = Long.toString(Math.max(1, (ms + 999) / 1000));
  }

  @ExceptionHandler(BadRequest.class)
  ResponseEntity<ApiError> badRequest(BadRequest e, HttpServletRequest req) {
    return bad(e.field(), e.getMessage(), req);
  }

  @ExceptionHandler(MethodArgumentNotValidException.class)
  ResponseEntity<ApiError> invalid(MethodArgumentNotValidException e, HttpServletRequest req) {
    FieldError f =
        e.getBindingResult().getFieldErrors().stream()
            .sorted(java.util.Comparator.comparing(FieldError::getField))
            .findFirst()
            .orElse(null);
    if (f == null) {
      return bad(
          "body",
          e.getBindingResult().getAllErrors().stream()
              .map(x -> String.valueOf(x.getDefaultMessage()))
              .collect(Collectors.joining("; ")),
          req);
    }
    return bad(f.getField(), f.getField() + " " + f.getDefaultMessage(), req);
  }

  @ExceptionHandler(HttpMessageNotReadableException.class)
  ResponseEntity<ApiError> unreadable(HttpMessageNotReadableException e, HttpServletRequest req) {
    for (Throwable c = e; c != null; c = c.getCause()) {
      if (c instanceof BodySizeLimit.TooLarge t) {
        HttpStatus s = HttpStatus.PAYLOAD_TOO_LARGE;
        return ResponseEntity.status(s)
            .body(
                new ApiError(
                    s.value(), s.getReasonPhrase(), "body", t.getMessage(), req.getRequestURI()));
      }
    }
    if (e.getCause() instanceof JsonMappingException m && !m.getPath().isEmpty()) {
      String field =
          m.getPath().stream()
              .map(r -> r.getFieldName() != null ? r.getFieldName() : "[" + r.getIndex() + "]")
              .collect(Collectors.joining("."))
              .replace(".[", "[");
      return bad(field, "malformed field " + field + ": " + m.getOriginalMessage(), req);
    }
    String detail =
        e.getCause() instanceof com.fasterxml.jackson.core.JsonProcessingException p
            ? p.getOriginalMessage()
            : e.getMessage();
    return bad("body", "malformed JSON body: " + detail, req);
  }

  @ExceptionHandler(MissingServletRequestParameterException.class)
  ResponseEntity<ApiError> missing(
      MissingServletRequestParameterException e, HttpServletRequest req) {
    return bad(
        e.getParameterName(), "query parameter " + e.getParameterName() + " is required", req);
  }

  @ExceptionHandler(MethodArgumentTypeMismatchException.class)
  ResponseEntity<ApiError> mismatch(MethodArgumentTypeMismatchException e, HttpServletRequest req) {
    return bad(
        e.getName(),
        e.getName()
            + "="
            + e.getValue()
            + " is not a valid "
            + (e.getRequiredType() == null ? "value" : e.getRequiredType().getSimpleName()),
        req);
  }

  @ExceptionHandler(Forbidden.class)
  ResponseEntity<ApiError> forbidden(Forbidden e, HttpServletRequest req) {
    HttpStatus s = HttpStatus.FORBIDDEN;
    return ResponseEntity.status(s)
        .body(
            new ApiError(
                s.value(), s.getReasonPhrase(), null, e.getMessage(), req.getRequestURI()));
  }

  @ExceptionHandler(TooMany.class)
  ResponseEntity<ApiError> tooMany(TooMany e, HttpServletRequest req) {
    HttpStatus s = HttpStatus.TOO_MANY_REQUESTS;
    return ResponseEntity.status(s)
        .body(
            new ApiError(
                s.value(), s.getReasonPhrase(), null, e.getMessage(), req.getRequestURI()));
  }

  @ExceptionHandler(StoreGateway.Rejected.class)
  ResponseEntity<ApiError> rejected(StoreGateway.Rejected e, HttpServletRequest req) {
    return bad(null, e.getMessage(), req);
  }

  @ExceptionHandler(NotFound.class)
  ResponseEntity<ApiError> notFound(NotFound e, HttpServletRequest req) {
    HttpStatus s = HttpStatus.NOT_FOUND;
    return ResponseEntity.status(s)
        .body(
            new ApiError(
                s.value(), s.getReasonPhrase(), e.field(), e.getMessage(), req.getRequestURI()));
  }

  @ExceptionHandler(StoreGateway.Unavailable.class)
  ResponseEntity<ApiError> unavailable(StoreGateway.Unavailable e, HttpServletRequest req) {
    HttpStatus s = HttpStatus.SERVICE_UNAVAILABLE;
    return ResponseEntity.status(s)
        .header(org.springframework.http.HttpHeaders.RETRY_AFTER, retryAfterSeconds)
        .body(
            new ApiError(
                s.value(),
                s.getReasonPhrase(),
                null,
                "history store unavailable (" + e.reason() + "): " + e.getMessage(),
                req.getRequestURI()));
  }

  private static ResponseEntity<ApiError> bad(
      String field, String message, HttpServletRequest req) {
    HttpStatus s = HttpStatus.BAD_REQUEST;
    return ResponseEntity.status(s)
        .body(new ApiError(s.value(), s.getReasonPhrase(), field, message, req.getRequestURI()));
  }
}
