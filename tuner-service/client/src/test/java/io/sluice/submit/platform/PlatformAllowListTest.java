package io.sluice.submit.platform;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.submit.client.Advice;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PlatformAllowListTest {
  @TempDir Path dir;

  private static final Advice.Platform MIXED =
      new Advice.Platform(
          Map.of(
              "spark.sluice.tier",
              "CELEBORN",
              "spark.executor.extraJavaOptions",
              "-javaagent:/tmp/a.jar"),
          List.of("/opt/sluice/shim.jar", "https://evil.example/x.jar"),
          List.of("io.sluice.throttle.shim.SluiceShimPlugin", "com.evil.Plugin"),
          List.of("why"));

  @Test
  void theDefaultsKeepSluicesOwnAdditionsAndRefuseTheRestOneByOne() {
    PlatformAllowList.Filtered f = PlatformAllowList.defaults().filter(MIXED);
    assertThat(f.platform().confs()).containsOnlyKeys("spark.sluice.tier");
    assertThat(f.platform().jars()).containsExactly("/opt/sluice/shim.jar");
    assertThat(f.platform().plugins()).containsExactly("io.sluice.throttle.shim.SluiceShimPlugin");
    assertThat(f.platform().reasons()).containsExactly("why");
    assertThat(f.refused())
        .containsExactlyInAnyOrder(
            "conf spark.executor.extraJavaOptions",
            "plugin com.evil.Plugin",
            "jar https://evil.example/x.jar");
  }

  @Test
  void theDefaultsCoverEveryKeyOfSluicesContributors() {
    PlatformAllowList d = PlatformAllowList.defaults();
    for (String k :
        List.of(
            "spark.sluice.tuner.url",
            "spark.sluice.tier.reason",
            "spark.sluice.tier.shuffleManager",
            "spark.shuffle.manager",
            "spark.driver.extraClassPath",
            "spark.sluice.original.spark.executor.extraClassPath",
            "spark.celeborn.quota.identity.user-specific.tenant",
            "spark.rss.access.id",
            "spark.sluice.shim.maxSleepMs")) {
      assertThat(d.allowsConf(k)).as(k).isTrue();
    }
    assertThat(d.allowsConf("spark.sluice.tierX")).isFalse();
    assertThat(d.allowsConf("spark.executor.extraClassPathX")).isFalse();
    assertThat(d.allowsPlugin("io.sluice.submit.plugin.SluiceAppReporterPlugin")).isTrue();
    assertThat(d.allowsJar("local:/opt/s.jar")).isTrue();
    assertThat(d.allowsJar("hdfs:///s.jar")).isFalse();
  }

  @Test
  void aConfiguredListReplacesTheDefaultsUnlessItIncludesThem() throws Exception {
    PlatformAllowList only =
        PlatformAllowList.configured(
            Map.of(
                PlatformAllowList.ENV_INLINE,
                "conf spark.executor.extraJavaOptions; jar hdfs:///sluice/"),
            null);
    assertThat(only.allowsConf("spark.executor.extraJavaOptions")).isTrue();
    assertThat(only.allowsConf("spark.sluice.tier")).isFalse();
    assertThat(only.allowsJar("hdfs:///sluice/a.jar")).isTrue();
    assertThat(only.source()).isEqualTo(PlatformAllowList.ENV_INLINE);

    Path file =
        Files.writeString(
            dir.resolve("allow"), "# platform\ndefaults\nplugin com.acme.P  # ours\n");
    PlatformAllowList fromFile =
        PlatformAllowList.configured(
            Map.of(
                PlatformAllowList.ENV_FILE,
                file.toString(),
                PlatformAllowList.ENV_INLINE,
                "conf spark.x"),
            null);
    assertThat(fromFile.allowsPlugin("com.acme.P")).isTrue();
    assertThat(fromFile.allowsConf("spark.sluice.tier")).isTrue();
    assertThat(fromFile.allowsConf("spark.x")).isFalse();
    assertThat(PlatformAllowList.configured(Map.of(), file.toString()).source())
        .isEqualTo(file.toString());
    assertThat(PlatformAllowList.configured(Map.of(), null).source())
        .isEqualTo("built-in defaults");
  }

  @Test
  void aMalformedOrUnreadableListIsAnErrorAndThenAllowsNothing() {
    assertThatThrownBy(() -> PlatformAllowList.parse(List.of("conf spark.a", "spark.b"), "f"))
        .hasMessage(
            "f entry 2 'spark.b' is not 'conf KEY', 'conf PREFIX*', 'plugin CLASS', 'jar PREFIX' or 'defaults'");
    assertThatThrownBy(() -> PlatformAllowList.parse(List.of("key spark.a"), "f"))
        .hasMessage("f entry 1 'key spark.a': unknown kind 'key' (conf, plugin, jar or defaults)");
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PlatformAllowList none =
        PlatformAllowList.configuredOrNothing(
            Map.of(PlatformAllowList.ENV_FILE, dir.resolve("missing").toString()),
            null,
            new PrintStream(bytes, true, StandardCharsets.UTF_8));
    assertThat(none.filter(MIXED).refused()).hasSize(6);
    assertThat(bytes.toString(StandardCharsets.UTF_8))
        .contains("cannot read the platform allow-list")
        .contains("no platform additions will be applied");
  }
}
