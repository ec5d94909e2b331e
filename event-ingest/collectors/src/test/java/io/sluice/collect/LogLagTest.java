package io.sluice.collect;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class LogLagTest {

  private final AtomicLong now = new AtomicLong(1_000_000);
  private final LogLag lag = new LogLag(now::get);

  @Test
  void aLogIsBehindFromThePassThatSawItsNewBytesUntilOneReadsToItsEnd() {
    lag.observed("a", 300);
    now.addAndGet(2_500);
    assertThat(lag.snapshot()).isEqualTo(new EventLogCollector.Lag(300, 300, 1, 2.5));

    lag.caughtUp("a", 300);
    assertThat(lag.snapshot()).isEqualTo(new EventLogCollector.Lag(0, 0, 0, 0));

    now.addAndGet(1_000);
    lag.observed("a", 450); // it grew
    now.addAndGet(4_000);
    assertThat(lag.snapshot()).isEqualTo(new EventLogCollector.Lag(150, 150, 1, 4.0));
  }

  @Test
  void totalsAddUpAndTheAgeIsTheOldestLogs() {
    lag.observed("a", 100);
    now.addAndGet(1_000);
    lag.observed("b", 40);
    lag.observed("c", 0); // empty so far: not behind
    now.addAndGet(1_000);
    lag.observed("a", 120); // still behind: its age keeps counting from the first pass
    assertThat(lag.snapshot()).isEqualTo(new EventLogCollector.Lag(160, 120, 2, 2.0));
  }

  @Test
  void aReadThatStartedBeforeTheLogGrewLeavesTheGrowthUnread() {
    lag.observed("a", 100);
    lag.observed("a", 180); // a second pass saw more before the first read finished
    lag.caughtUp("a", 100);
    assertThat(lag.snapshot()).isEqualTo(new EventLogCollector.Lag(80, 80, 1, 0.0));
  }

  @Test
  void finishedAndVanishedLogsAreNoLongerCounted() {
    lag.observed("a", 100);
    lag.observed("b", 50);
    lag.retain(Set.of("b"));
    lag.caughtUp("a", 100); // unknown now: ignored
    assertThat(lag.snapshot()).isEqualTo(new EventLogCollector.Lag(50, 50, 1, 0.0));
  }
}
