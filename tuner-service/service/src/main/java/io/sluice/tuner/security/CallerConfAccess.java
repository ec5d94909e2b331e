package io.sluice.tuner.security;

import io.sluice.tuner.ui.ConfAccess;
import org.springframework.stereotype.Component;

/**
 * The UI's rule for whole confs, from the signed-in caller: ADMIN, and OPERATOR on the run's queue (or on every
 * queue when the operator is not limited to some), read every non-secret value; everybody else reads only the
 * tunable keys' values. The same rule as {@link Redaction}.
 */
@Component
class CallerConfAccess implements ConfAccess {
  @Override
  public boolean seesFullConf(String queue) {
    return Caller.current().operates(queue);
  }
}
