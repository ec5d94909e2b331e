package io.sluice.throttle.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class SluiceDirectiveTest {
  @Test
  void roundTrip() {
    SluiceDirective d = new SluiceDirective(1_500, "app-20261122-0001");
    assertThat(d.format()).isEqualTo("SLUICE-SLEEP ms=1500 app=app-20261122-0001");
    assertThat(SluiceDirective.parse(d.format())).contains(d);
  }

  @Test
  void foundInsideWrappedMessagesAndCauseChains() {
    String wrapped =
        "java.lang.RuntimeException: java.lang.RuntimeException: SLUICE-SLEEP ms=200 app=a-1\n\tat ...";
    assertThat(SluiceDirective.parse(wrapped)).contains(new SluiceDirective(200, "a-1"));
    Exception chain =
        new IllegalStateException(
            "fetch failed",
            new RuntimeException(
                "Failure while fetching", new RuntimeException("SLUICE-SLEEP ms=7 app=b")));
    assertThat(SluiceDirective.find(chain)).contains(new SluiceDirective(7, "b"));
  }

  @Test
  void otherErrorsAreNotDirectives() {
    assertThat(SluiceDirective.parse(null)).isEmpty();
    assertThat(SluiceDirective.parse("java.io.IOException: Connection reset")).isEmpty();
    assertThat(SluiceDirective.parse("SLUICE-SLEEP ms=abc app=x")).isEmpty();
    assertThat(SluiceDirective.parse("SLUICE-SLEEP ms=-5 app=x")).isEmpty();
    assertThat(SluiceDirective.find(new RuntimeException((String) null)))
        .isEqualTo(Optional.empty());
  }

  @Test
  void invalidDirectivesCannotBeMade() {
    assertThatThrownBy(() -> new SluiceDirective(-1, "a"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new SluiceDirective(1, "a b"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new SluiceDirective(1, ""))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
