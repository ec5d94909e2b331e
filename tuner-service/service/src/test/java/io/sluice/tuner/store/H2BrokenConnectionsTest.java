package io.sluice.tuner.store;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.SQLExceptionOverride.Override;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;

class H2BrokenConnectionsTest {
  final H2BrokenConnections rules = new H2BrokenConnections();

  @Test
  void h2sClosedDatabaseAndBrokenConnectionCodesEvictTheConnection() {
    for (int code : new int[] {90067, 90098, 90121, 90007}) {
      assertThat(rules.adjudicate(new SQLException("gone", String.valueOf(code), code)))
          .as("code %d", code)
          .isEqualTo(Override.MUST_EVICT);
    }
    // wrapped, as Spring's translation may leave it in the chain
    SQLException wrapped = new SQLException("statement failed", "HY000", 0);
    wrapped.initCause(new SQLException("Database is already closed", "90121", 90121));
    assertThat(rules.adjudicate(wrapped)).isEqualTo(Override.MUST_EVICT);
  }

  @Test
  void otherErrorsAreLeftToThePoolsOwnRules() {
    // a constraint violation (a client's data) and a syntax error keep the connection
    assertThat(rules.adjudicate(new SQLException("duplicate key", "23505", 23505)))
        .isEqualTo(Override.CONTINUE_EVICT);
    assertThat(rules.adjudicate(new SQLException("syntax", "42000", 42000)))
        .isEqualTo(Override.CONTINUE_EVICT);
  }
}
