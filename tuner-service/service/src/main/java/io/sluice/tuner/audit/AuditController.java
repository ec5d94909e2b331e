package io.sluice.tuner.audit;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.sluice.tuner.api.BadRequest;
import io.swagger.v3.oas.annotations.Operation;
import java.util.List;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** {@code GET /api/v1/audit}: operator and admin actions, newest first, paged and filtered. */
@RestController
class AuditController {
  static final int MAX_LIMIT = 500;
  static final int MAX_OFFSET = 1_000_000;

  @JsonPropertyOrder({"offset", "limit", "entries"})
  record Page(int offset, int limit, List<AuditRecord> entries) {}

  private final Audit audit;

  AuditController(Audit audit) {
    this.audit = audit;
  }

  @GetMapping("/api/v1/audit")
  @Operation(
      summary =
          "Operator and admin actions (who, what, target, before/after, when), newest first; filters "
              + "actor, action, target; paged by offset and limit (1..500, default 50)")
  Page audit(
      @RequestParam(required = false) String actor,
      @RequestParam(required = false) String action,
      @RequestParam(required = false) String target,
      @RequestParam(defaultValue = "0") int offset,
      @RequestParam(defaultValue = "50") int limit) {
    if (limit < 1 || limit > MAX_LIMIT) {
      throw new BadRequest("limit", "limit must be in 1.." + MAX_LIMIT + ", was " + limit);
    }
    if (offset < 0 || offset > MAX_OFFSET) {
      throw new BadRequest("offset", "offset must be in 0.." + MAX_OFFSET + ", was " + offset);
    }
    for (String[] f : new String[][] {{"actor", actor}, {"action", action}, {"target", target}}) {
      if (f[1] != null && f[1].length() > 1024) {
        throw new BadRequest(f[0], f[0] + " is longer than 1024 characters");
      }
    }
    return new Page(
        offset, limit, audit.find(new AuditQuery(actor, action, target, offset, limit)));
  }
}
