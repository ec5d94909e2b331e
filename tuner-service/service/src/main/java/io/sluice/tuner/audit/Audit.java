package io.sluice.tuner.audit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.tuner.security.Caller;
import io.sluice.tuner.store.ControlDatabase;
import java.time.Clock;
import java.util.List;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.stereotype.Service;

/**
 * Records operator and admin actions with the signed-in caller as the actor, after the action
 * succeeded. A failure to record is logged and counted ({@code sluice.tuner.audit.failures}); the
 * action itself stands.
 */
@Service
public class Audit implements DisposableBean {
  private static final Logger LOG = LoggerFactory.getLogger(Audit.class);

  private final AuditLog log;
  private final Clock clock;
  private final ObjectMapper json;
  private final Counter failures;

  public Audit(ControlDatabase control, Clock clock, ObjectMapper json, MeterRegistry meters) {
    this.log = new JdbcAuditLog(control);
    this.clock = clock;
    this.json = json;
    this.failures =
        Counter.builder("sluice.tuner.audit.failures")
            .description("Operator or admin actions that could not be recorded in the audit log")
            .register(meters);
  }

  /**
   * Records {@code action} on {@code target}; {@code before}/{@code after} are serialised as JSON
   * (null stays null).
   */
  public void record(String action, String target, Object before, Object after) {
    AuditRecord r =
        new AuditRecord(
            UUID.randomUUID().toString(),
            clock.millis(),
            Caller.current().name(),
            action,
            target,
            text(before),
            text(after));
    try {
      log.append(r);
    } catch (RuntimeException e) {
      failures.increment();
      LOG.error("audit record lost: {} {} by {} ({})", action, target, r.actor(), e.getMessage());
    }
  }

  public List<AuditRecord> find(AuditQuery q) {
    return log.find(q);
  }

  private String text(Object o) {
    if (o == null) {
      return null;
    }
    if (o instanceof String s) {
      return s;
    }
    try {
      return json.writeValueAsString(o);
    } catch (JsonProcessingException e) {
      return String.valueOf(o);
    }
  }

  @Override
  public void destroy() {
    log.close();
  }
}
