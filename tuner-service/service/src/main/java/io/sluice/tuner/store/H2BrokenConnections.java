package io.sluice.tuner.store;

import com.zaxxer.hikari.SQLExceptionOverride;
import java.sql.SQLException;
import java.util.Set;
import org.h2.api.ErrorCode;

/**
 * Tells the connection pool to drop an H2 connection whose database or session is gone. HikariCP
 * evicts a connection on its own only for the standard "connection exception" states (class 08),
 * while H2 reports a store server that was restarted under an open connection with codes of its own
 * ("Database is already closed", 90121, and the like). Without this the pool hands the dead
 * connection out again and again while calls keep coming (it checks a connection only after it sat
 * idle for a while), and the service stays cut off from a store that is long back (measured: more
 * than 60 s at 1,000 requests/s). Any other error is left to the pool's own rules.
 */
public final class H2BrokenConnections implements SQLExceptionOverride {
  /** H2's error codes that mean the connection is unusable, whatever the statement. */
  static final Set<Integer> BROKEN =
      Set.of(
          ErrorCode.CONNECTION_BROKEN_1,
          ErrorCode.DATABASE_IS_CLOSED,
          ErrorCode.DATABASE_CALLED_AT_SHUTDOWN,
          ErrorCode.OBJECT_CLOSED);

  /** Created by the pool from its class name. */
  public H2BrokenConnections() {}

  @java.lang.Override
  public Override adjudicate(SQLException e) {
    for (Throwable c = e; c != null; c = c.getCause()) {
      if (c instanceof SQLException s && BROKEN.contains(s.getErrorCode())) {
        return Override.MUST_EVICT;
      }
    }
    return Override.CONTINUE_EVICT;
  }
}
