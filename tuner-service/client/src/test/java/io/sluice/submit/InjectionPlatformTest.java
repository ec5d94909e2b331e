package io.sluice.submit;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.submit.client.Advice;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Platform additions in {@link Injection#compute}: user keys win, plugins and jars are merged
 * without duplicates.
 */
class InjectionPlatformTest {
  private static Advice advice(Map<String, String> overlay, Advice.Platform platform) {
    return new Advice(
        "sub-1", "default/-/alice/job", "NEW", overlay, List.of(), List.of(), List.of(), platform);
  }

  private static Map<String, String> map(String... kv) {
    Map<String, String> m = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put(kv[i], kv[i + 1]);
    }
    return m;
  }

  private static final Advice.Platform SHIM =
      new Advice.Platform(
          map(
              "spark.sluice.tier",
              "ESS",
              "spark.executor.memory",
              "8g",
              "spark.sql.shuffle.partitions",
              "9"),
          List.of("/opt/shim.jar", "/opt/extra.jar"),
          List.of("io.sluice.throttle.shim.SluiceShimPlugin", "a.Other"),
          List.of("queue etl opted in"));

  @Test
  void confsAreAddedOnlyWhereNeitherUserNorOverlaySetTheKeyAndRecordedAsMarkers() {
    Injection inj =
        Injection.compute(
            map("spark.executor.memory", "2g"),
            advice(map("spark.sql.shuffle.partitions", "64"), SHIM),
            true,
            null,
            null);
    assertThat(inj.confs())
        .containsEntry("spark.sluice.tier", "ESS")
        .containsEntry("spark.sluice.platform.spark.sluice.tier", "ESS")
        .containsEntry("spark.sql.shuffle.partitions", "64")
        .doesNotContainKeys(
            "spark.executor.memory",
            "spark.sluice.platform.spark.executor.memory",
            "spark.sluice.platform.spark.sql.shuffle.partitions");
    // even overrideUserConf=true never lets the platform override a user key
    assertThat(inj.confs()).doesNotContainKey("spark.sluice.original.spark.executor.memory");
  }

  @Test
  void aPlatformConfThatKeepsTheUsersValueUnderTheOriginalMarkerReplacesIt() {
    Advice.Platform cp =
        new Advice.Platform(
            map(
                "spark.executor.extraClassPath",
                "/opt/sluice.jar:/u.jar",
                "spark.sluice.original.spark.executor.extraClassPath",
                "/u.jar",
                "spark.driver.extraClassPath",
                "/x.jar",
                "spark.sluice.original.spark.driver.extraClassPath",
                "/other.jar"),
            List.of(),
            List.of(),
            List.of());
    Injection inj =
        Injection.compute(
            map("spark.executor.extraClassPath", "/u.jar", "spark.driver.extraClassPath", "/d.jar"),
            advice(Map.of(), cp),
            false,
            null,
            null);
    assertThat(inj.confs())
        .containsEntry("spark.executor.extraClassPath", "/opt/sluice.jar:/u.jar")
        .containsEntry("spark.sluice.original.spark.executor.extraClassPath", "/u.jar")
        .containsEntry(
            "spark.sluice.platform.spark.executor.extraClassPath", "/opt/sluice.jar:/u.jar")
        // the marker does not hold the user's value: the user's key wins as always
        .doesNotContainKey("spark.driver.extraClassPath");
  }

  @Test
  void pluginsAreMergedIntoTheUsersWithoutDuplicates() {
    Injection inj =
        Injection.compute(
            map("spark.plugins", "com.acme.P, a.Other"), advice(Map.of(), SHIM), false, null, null);
    assertThat(inj.confs())
        .containsEntry(
            "spark.plugins", "com.acme.P,a.Other,io.sluice.throttle.shim.SluiceShimPlugin")
        .containsEntry(
            "spark.sluice.platform.spark.plugins", "io.sluice.throttle.shim.SluiceShimPlugin");
    Injection none =
        Injection.compute(
            map("spark.plugins", "io.sluice.throttle.shim.SluiceShimPlugin,a.Other"),
            advice(Map.of(), SHIM),
            false,
            null,
            null);
    assertThat(none.confs())
        .doesNotContainKeys("spark.plugins", "spark.sluice.platform.spark.plugins");
  }

  @Test
  void jarsFollowTheListenerAndSkipThoseTheUserAlreadyHas() throws Exception {
    Map<String, String> user = map("spark.jars", "/opt/extra.jar");
    Injection inj =
        Injection.compute(
            user,
            advice(Map.of(), SHIM),
            false,
            new Injection.Listener("/l.jar", "k:9092", null),
            null);
    assertThat(inj.jars()).containsExactly("/l.jar", "/opt/shim.jar");
    assertThat(inj.confs()).containsEntry("spark.sluice.platform.spark.jars", "/opt/shim.jar");
    SparkSubmitArgs p = SparkSubmitArgs.parse(List.of("--jars", "/opt/extra.jar", "app.py"));
    assertThat(p.rewrite(Map.of(), inj.jars(), p.effectiveConf(Map.of())))
        .containsExactly("--jars", "/opt/extra.jar,/l.jar,/opt/shim.jar", "app.py");
    Injection same =
        Injection.compute(
            Map.of(),
            advice(
                Map.of(), new Advice.Platform(Map.of(), List.of("/l.jar"), List.of(), List.of())),
            false,
            new Injection.Listener("/l.jar", "k:9092", null),
            null);
    assertThat(same.jars()).containsExactly("/l.jar");
  }

  @Test
  void theDriverPluginsFilterKeepsOnlyAllowedConfsAndNoPluginsOrJars() {
    Injection inj =
        Injection.compute(
            Map.of(), advice(Map.of(), SHIM), false, null, k -> k.equals("spark.sluice.tier"));
    assertThat(inj.jars()).isEmpty();
    assertThat(inj.confs())
        .containsEntry("spark.sluice.tier", "ESS")
        .doesNotContainKeys(
            "spark.plugins", "spark.executor.memory", "spark.sluice.platform.spark.jars");
  }

  @Test
  void noPlatformChangesNothing() {
    Injection with =
        Injection.compute(
            map("spark.plugins", "a.B"), advice(Map.of(), Advice.Platform.NONE), false, null, null);
    assertThat(with.confs()).containsOnlyKeys("spark.sluice.submission.id", "spark.sluice.job.key");
    assertThat(with.jars()).isEmpty();
  }

  @Test
  void platformAdditionsOutsideTheAllowListAreDroppedAndCountedAndTheAllowedOnesStillApply() {
    Advice.Platform p =
        new Advice.Platform(
            map(
                "spark.sluice.tier",
                "CELEBORN",
                "spark.executor.extraJavaOptions",
                "-javaagent:/tmp/a.jar"),
            List.of("/opt/shim.jar", "http://evil.example/x.jar"),
            List.of("io.sluice.throttle.shim.SluiceShimPlugin", "com.evil.P"),
            List.of());
    Injection inj =
        Injection.compute(
            Map.of(),
            advice(Map.of(), p),
            false,
            null,
            null,
            io.sluice.submit.platform.PlatformAllowList.defaults());
    assertThat(inj.confs())
        .containsEntry("spark.sluice.tier", "CELEBORN")
        .containsEntry("spark.plugins", "io.sluice.throttle.shim.SluiceShimPlugin")
        .containsEntry("spark.sluice.platformRefused", "3")
        .doesNotContainKey("spark.executor.extraJavaOptions");
    assertThat(inj.jars()).containsExactly("/opt/shim.jar");
    assertThat(inj.platformRefused())
        .containsExactly(
            "conf spark.executor.extraJavaOptions",
            "plugin com.evil.P",
            "jar http://evil.example/x.jar");
    assertThat(inj.summary(advice(Map.of(), p)))
        .contains(
            "platform additions refused by the client allow-list (3) [conf spark.executor.extraJavaOptions, "
                + "plugin com.evil.P, jar http://evil.example/x.jar]");
    // the driver plugin's filter: plugins and jars do not apply at all there, so they are not
    // counted as refused
    Injection driver =
        Injection.compute(
            Map.of(),
            advice(Map.of(), p),
            false,
            null,
            k -> k.startsWith("spark.executor."),
            io.sluice.submit.platform.PlatformAllowList.defaults());
    assertThat(driver.platformRefused()).containsExactly("conf spark.executor.extraJavaOptions");
  }
}
