package io.sluice.fallback.conf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.contracts.Tier;
import io.sluice.fallback.conf.OriginalConf.Markers;
import io.sluice.fallback.conf.OriginalConf.Restored;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OriginalConfTest {
  // sluice-submit's prefixes (io.sluice.submit.Injection.INJECTED_PREFIX / ORIGINAL_PREFIX)
  private static final Markers MARKERS =
      new Markers("spark.sluice.injected.", "spark.sluice.original.");

  private static Map<String, String> conf(String... kv) {
    Map<String, String> m = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put(kv[i], kv[i + 1]);
    }
    return m;
  }

  /**
   * A launched Celeborn push-tier conf: overlay over a user conf that had its own shuffle
   * partitions.
   */
  private static Map<String, String> launchedCeleborn() {
    return conf(
        "spark.app.name", "nightly",
        "spark.sql.shuffle.partitions", "400",
        "spark.shuffle.manager", "io.sluice.fallback.SluiceShuffleManager",
        "spark.sluice.tier", "CELEBORN",
        "spark.celeborn.master.endpoints", "m1:9097",
        "spark.executor.memory", "4g",
        "spark.sluice.submission.id", "s-42",
        "spark.sluice.injected.spark.shuffle.manager", "io.sluice.fallback.SluiceShuffleManager",
        "spark.sluice.injected.spark.sluice.tier", "CELEBORN",
        "spark.sluice.injected.spark.celeborn.master.endpoints", "m1:9097",
        "spark.sluice.injected.spark.executor.memory", "4g",
        "spark.sluice.original.spark.executor.memory", "2g");
  }

  @Test
  void removesInjectedKeysRestoresOverriddenOnesAndDropsTheMarkers() {
    Restored r = OriginalConf.restore(launchedCeleborn(), MARKERS);
    assertThat(r.conf())
        .containsExactly(
            Map.entry("spark.app.name", "nightly"),
            Map.entry("spark.sql.shuffle.partitions", "400"),
            Map.entry("spark.executor.memory", "2g"),
            Map.entry("spark.sluice.submission.id", "s-42"));
    assertThat(r.removed())
        .containsExactly(
            "spark.shuffle.manager", "spark.sluice.tier", "spark.celeborn.master.endpoints");
    assertThat(r.restored()).containsExactly(Map.entry("spark.executor.memory", "2g"));
    assertThat(r.leftChanged()).isEmpty();
    assertThat(r.changed()).isTrue();
  }

  @Test
  void anInjectedKeyChangedAfterInjectionIsLeftAsLaunched() {
    Map<String, String> launched = launchedCeleborn();
    launched.put(
        "spark.celeborn.master.endpoints",
        "m2:9097"); // someone else changed it after sluice-submit
    Restored r = OriginalConf.restore(launched, MARKERS);
    assertThat(r.conf()).containsEntry("spark.celeborn.master.endpoints", "m2:9097");
    assertThat(r.leftChanged()).containsExactly("spark.celeborn.master.endpoints");
    assertThat(r.removed()).containsExactly("spark.shuffle.manager", "spark.sluice.tier");
  }

  @Test
  void anOriginalWhoseKeyIsGoneIsPutBack() {
    Restored r =
        OriginalConf.restore(
            conf(
                "spark.sluice.original.spark.reducer.maxSizeInFlight", "96m",
                "spark.sluice.injected.spark.reducer.maxSizeInFlight", "48m"),
            MARKERS);
    assertThat(r.conf()).containsExactly(Map.entry("spark.reducer.maxSizeInFlight", "96m"));
    assertThat(r.restored()).containsExactly(Map.entry("spark.reducer.maxSizeInFlight", "96m"));
  }

  @Test
  void aConfWithoutMarkersComesBackUnchanged() {
    Map<String, String> plain = conf("spark.app.name", "x", "spark.sluice.submission.id", "s-1");
    Restored r = OriginalConf.restore(plain, MARKERS);
    assertThat(r.conf()).isEqualTo(plain);
    assertThat(r.changed()).isFalse();
    assertThat(r.removed()).isEmpty();
    assertThat(r.leftChanged()).isEmpty();
  }

  @Test
  void theInputIsNotModified() {
    Map<String, String> launched = launchedCeleborn();
    Map<String, String> copy = new LinkedHashMap<>(launched);
    OriginalConf.restore(launched, MARKERS);
    assertThat(launched).isEqualTo(copy);
  }

  @Test
  void forRerunIsTheOriginalConfPlusTheOutcomeMarkers() {
    Map<String, String> rerun =
        OriginalConf.forRerun(launchedCeleborn(), MARKERS, "exit 1 in celeborn");
    assertThat(rerun)
        .containsExactly(
            Map.entry("spark.app.name", "nightly"),
            Map.entry("spark.sql.shuffle.partitions", "400"),
            Map.entry("spark.executor.memory", "2g"),
            Map.entry("spark.sluice.submission.id", "s-42"),
            Map.entry("spark.sluice.tier.outcome", "ESS"),
            Map.entry("spark.sluice.tier.fallbackReason", "RERUN_AFTER_TIER_FAILURE"),
            Map.entry("spark.sluice.tier.fallbackDetail", "exit 1 in celeborn"));
  }

  @Test
  void markersMustBeTwoDistinctPrefixes() {
    assertThatThrownBy(() -> new Markers("a.", "a.")).hasMessageContaining("'a.'");
    assertThatThrownBy(() -> new Markers("", "b.")).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void tierNamesParseCaseInsensitivelyAndUnknownOnesAreEmpty() {
    assertThat(Tier.parse(" Celeborn ")).contains(Tier.CELEBORN);
    assertThat(Tier.parse("SPARK_PUSH")).contains(Tier.SPARK_PUSH);
    assertThat(Tier.parse("spark-push")).contains(Tier.SPARK_PUSH);
    assertThat(Tier.parse("riffle")).isEmpty();
    assertThat(Tier.parse(null)).isEmpty();
    assertThat(List.of(Tier.values()).stream().map(Tier::wireName))
        .containsExactly("ESS", "SPARK_PUSH", "CELEBORN", "UNIFFLE");
  }
}
