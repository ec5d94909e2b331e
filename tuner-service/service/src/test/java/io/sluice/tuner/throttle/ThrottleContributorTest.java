package io.sluice.tuner.throttle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.contracts.api.SubmissionRequest;
import io.sluice.tuner.submission.PlatformAdditions;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

class ThrottleContributorTest {
  private final LiveApps apps =
      new LiveApps(Clock.systemUTC(), Duration.ofHours(1), Duration.ofHours(1), 10);
  private final PriorityPolicy policy =
      new PriorityPolicy(2, Map.of("etl", 1), Map.of(), Set.of("etl"));
  private final ThrottleMetrics metrics = new ThrottleMetrics(new SimpleMeterRegistry(), apps);

  private static SubmissionRequest req(String queue) {
    return new SubmissionRequest("prod", queue, "u", "app", null, Map.of());
  }

  @Test
  void aShimQueueWithoutShimJarGetsAReasonAndNoShim() {
    ThrottleContributor c = new ThrottleContributor(true, policy, apps, " ", null, null, metrics);
    PlatformAdditions a = c.contribute(req("etl"), "s1", "k");
    assertThat(a.plugins()).isEmpty();
    assertThat(a.jars()).isEmpty();
    assertThat(a.reasons())
        .containsExactly(
            "throttle: queue etl opts in to the client shim but "
                + "sluice.throttle.shim-jar is not set; no shim added");
    assertThat(apps.report("app-1", "s1").app().orElseThrow().priority()).isEqualTo(1);
  }

  @Test
  void withoutReporterJarAndShimNothingIsAddedButTheSubmissionIsRecorded() {
    ThrottleContributor c =
        new ThrottleContributor(true, policy, apps, "/shim.jar", null, "http://x", metrics);
    assertThat(c.contribute(req("other"), "s2", "k").isEmpty()).isTrue();
    assertThat(apps.pendingCount()).isEqualTo(1);
  }

  @Test
  void disabledAddsAndRecordsNothing() {
    ThrottleContributor c =
        new ThrottleContributor(false, policy, apps, "/shim.jar", "/c.jar", null, metrics);
    assertThat(c.contribute(req("etl"), "s3", "k").isEmpty()).isTrue();
    assertThat(apps.pendingCount()).isZero();
  }

  @Test
  void shimAndReporterTogether() {
    ThrottleContributor c =
        new ThrottleContributor(true, policy, apps, "/shim.jar", "/c.jar", null, metrics);
    PlatformAdditions a = c.contribute(req("etl"), "s4", "k");
    assertThat(a.plugins())
        .containsExactly(ThrottleContributor.REPORTER_PLUGIN, ThrottleContributor.SHIM_PLUGIN);
    assertThat(a.jars()).containsExactly("/c.jar", "/shim.jar");
    assertThat(a.confs()).isEmpty();
  }

  @Test
  void priorityBoundsAreCheckedNamingTheProperty() {
    assertThatThrownBy(() -> bind(Map.of("sluice.throttle.jobs.[prod/etl/u/j]", "5000")))
        .rootCause()
        .hasMessage("sluice.throttle.jobs.[prod/etl/u/j] must be in -1000..1000, was 5000");
    assertThatThrownBy(() -> bind(Map.of("sluice.throttle.app-ttl", "0s")))
        .rootCause()
        .hasMessage("sluice.throttle.app-ttl must be positive, was PT0S");
    ThrottleProperties defaults = bind(Map.of());
    assertThat(List.of(defaults.defaultPriority(), defaults.maxApps())).containsExactly(2, 10_000);
    assertThat(defaults.appTtl()).isEqualTo(Duration.ofHours(24));
    assertThat(bind(Map.of("sluice.throttle.jobs.[prod/etl/u/j]", "4")).jobs())
        .containsEntry("prod/etl/u/j", 4);
  }

  static ThrottleProperties bind(Map<String, String> props) {
    return new Binder(new MapConfigurationPropertySource(props))
        .bindOrCreate("sluice.throttle", ThrottleProperties.class);
  }
}
