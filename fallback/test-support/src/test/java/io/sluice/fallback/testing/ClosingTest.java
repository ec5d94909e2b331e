package io.sluice.fallback.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ClosingTest {
  private final List<String> closed = new ArrayList<>();

  private AutoCloseable ok(String name) {
    return () -> closed.add(name);
  }

  @Test
  void closesInTheOrderGivenAndSkipsNulls() throws Exception {
    Closing.all(ok("cluster"), null, ok("tuner"), ok("webhook"));
    assertThat(closed).containsExactly("cluster", "tuner", "webhook");
  }

  @Test
  void closesEveryOneAfterFailuresAndRethrowsTheFirstWithTheOthersSuppressed() {
    IOException first = new IOException("cluster");
    AssertionError second = new AssertionError("tuner");
    Throwable t =
        catchThrowable(
            () ->
                Closing.all(
                    () -> {
                      closed.add("cluster");
                      throw first;
                    },
                    () -> {
                      closed.add("tuner");
                      throw second;
                    },
                    ok("webhook")));
    assertThat(closed).containsExactly("cluster", "tuner", "webhook");
    assertThat(t).isSameAs(first);
    assertThat(t.getSuppressed()).containsExactly(second);
  }

  @Test
  void anErrorComesBackAsItself() {
    AssertionError error = new AssertionError("pool");
    Throwable t =
        catchThrowable(
            () ->
                Closing.all(
                    () -> {
                      throw error;
                    },
                    ok("yarn")));
    assertThat(t).isSameAs(error);
    assertThat(closed).containsExactly("yarn");
  }
}
