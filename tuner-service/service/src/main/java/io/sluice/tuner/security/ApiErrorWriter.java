package io.sluice.tuner.security;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.tuner.api.ApiError;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;

/**
 * Writes the API's JSON error body from the security filters (401, 403, 413), as the controllers
 * do.
 */
final class ApiErrorWriter {
  private final ObjectMapper json;

  ApiErrorWriter(ObjectMapper json) {
    this.json = json;
  }

  void write(HttpServletRequest req, HttpServletResponse res, HttpStatus status, String message)
      throws IOException {
    if (res.isCommitted()) {
      return;
    }
    res.setStatus(status.value());
    res.setContentType(MediaType.APPLICATION_JSON_VALUE);
    json.writeValue(
        res.getOutputStream(),
        new ApiError(status.value(), status.getReasonPhrase(), null, message, req.getRequestURI()));
  }
}
