package io.sluice.tuner.throttle;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class LiveAppsTest {
  /** A clock the test moves. */
  static final class TestClock extends Clock {
    Instant now = Instant.parse("2026-11-22T00:00:00Z");

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return now;
    }

    void advance(Duration d) {
      now = now.plus(d);
    }
  }

  private final TestClock clock = new TestClock();
  private final LiveApps apps = new LiveApps(clock, Duration.ofMinutes(10), Duration.ofHours(1), 3);

  @Test
  void aReportedSubmissionBecomesALiveAppWithItsPriorityAndShimFlag() {
    apps.submitted("s1", "prod/etl/alice/heavy", "etl", 1, true);
    assertThat(apps.pendingCount()).isEqualTo(1);
    LiveApps.Reported r = apps.report("app-1", "s1");
    assertThat(r.outcome()).isEqualTo(LiveApps.Report.REGISTERED);
    assertThat(r.app())
        .contains(
            new LiveApps.LiveApp("app-1", "s1", "prod/etl/alice/heavy", "etl", 1, true, clock.now));
    assertThat(apps.pendingCount()).isZero();
    assertThat(apps.report("app-1", "s1").outcome()).isEqualTo(LiveApps.Report.ALREADY_REGISTERED);
    assertThat(apps.report("app-9", "nope").outcome())
        .isEqualTo(LiveApps.Report.UNKNOWN_SUBMISSION);
    assertThat(apps.apps()).extracting(LiveApps.LiveApp::appId).containsExactly("app-1");
  }

  @Test
  void pendingSubmissionsAndAppsExpireAfterTheirTtl() {
    apps.submitted("s1", "j", null, 2, false);
    apps.submitted("s2", "j", null, 2, false);
    apps.report("app-2", "s2");
    clock.advance(Duration.ofMinutes(10).plusSeconds(1));
    assertThat(apps.report("app-1", "s1").outcome()).isEqualTo(LiveApps.Report.UNKNOWN_SUBMISSION);
    assertThat(apps.appCount()).isEqualTo(1);
    clock.advance(Duration.ofMinutes(50));
    assertThat(apps.appCount()).isZero();
    assertThat(apps.evictedExpired()).isEqualTo(2);
  }

  @Test
  void theOldestEntryGoesWhenFull() {
    for (int i = 1; i <= 4; i++) {
      apps.submitted("s" + i, "j", null, i, false);
      clock.advance(Duration.ofSeconds(1));
    }
    assertThat(apps.pendingCount()).isEqualTo(3);
    assertThat(apps.report("a1", "s1").outcome()).isEqualTo(LiveApps.Report.UNKNOWN_SUBMISSION);
    for (int i = 2; i <= 4; i++) {
      assertThat(apps.report("a" + i, "s" + i).outcome()).isEqualTo(LiveApps.Report.REGISTERED);
    }
    apps.submitted("s5", "j", null, 5, false);
    apps.report("a5", "s5");
    assertThat(apps.apps()).extracting(LiveApps.LiveApp::appId).containsExactly("a3", "a4", "a5");
    assertThat(apps.evictedCapacity()).isEqualTo(2);
  }

  @Test
  void anAppIdRegistersOnceAndAnotherSubmissionCannotTakeItOver() {
    TestClock clock = new TestClock();
    LiveApps apps = new LiveApps(clock, Duration.ofHours(1), Duration.ofHours(24), 100);
    apps.submitted("s-low", "etl/nightly", "etl", 1, false);
    apps.submitted("s-attacker", "adhoc/me", "adhoc", 9, true);
    assertThat(apps.report("app-7", "s-low").outcome()).isEqualTo(LiveApps.Report.REGISTERED);

    LiveApps.Reported hijack = apps.report("app-7", "s-attacker");
    assertThat(hijack.outcome()).isEqualTo(LiveApps.Report.CONFLICT);
    assertThat(hijack.app()).isEmpty();
    assertThat(apps.apps())
        .singleElement()
        .satisfies(
            a -> {
              assertThat(a.submissionId()).isEqualTo("s-low");
              assertThat(a.priority()).isEqualTo(1);
              assertThat(a.shim()).isFalse();
            });
    // the refused report did not use up the attacker's submission either
    assertThat(apps.pendingCount()).isEqualTo(1);
    assertThat(apps.report("app-7", "s-low").outcome())
        .isEqualTo(LiveApps.Report.ALREADY_REGISTERED);
  }
}
