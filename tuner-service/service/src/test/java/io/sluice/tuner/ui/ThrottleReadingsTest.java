package io.sluice.tuner.ui;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.store.GateEvent;
import io.sluice.store.GateEventLog;
import java.util.List;
import org.junit.jupiter.api.Test;

class ThrottleReadingsTest {
  private static GateEvent change(String node, long at, String to) {
    return new GateEvent("c", node, at, "stateChanged", "", 0, at, null, null, null, to, "{}");
  }

  @Test
  void episodesStartBeforeTheWindowAndLastUntilNormal() {
    List<GateEvent> changes =
        List.of(
            change("a", 50, "ABNORMAL"),
            change("a", 150, "NORMAL"),
            change("a", 300, "ABNORMAL"),
            change("b", 120, "NORMAL"));
    List<ThrottleReadings.NodeRow> rows =
        ThrottleReadings.nodes(
            changes,
            List.of(
                new GateEventLog.NodeActivity("c", "a", 310, 4, 1),
                new GateEventLog.NodeActivity("c", "b", 130, 0, 2)),
            100,
            400,
            (c, n, s, e) -> e - s);
    assertThat(rows)
        .containsExactly(
            new ThrottleReadings.NodeRow(
                "c",
                "a",
                "ABNORMAL",
                300L,
                310,
                3,
                4,
                1,
                List.of(
                    new ThrottleReadings.Episode(50, 150L, 100, 100),
                    new ThrottleReadings.Episode(300, null, 100, 100))),
            new ThrottleReadings.NodeRow("c", "b", "NORMAL", 120L, 130, 0, 0, 2, List.of()));
    assertThat(ThrottleReadings.abnormalNow(changes)).isEqualTo(1);
  }

  @Test
  void everyBucketIsListedWithTheNodesAbnormalInIt() {
    List<ThrottleReadings.Bucket> buckets =
        ThrottleReadings.timeline(
            List.of(
                new GateEventLog.TypeCount(100, "held", 2),
                new GateEventLog.TypeCount(200, "directive", 1),
                new GateEventLog.TypeCount(200, "episodeEnded", 9)),
            List.of(
                change("a", 150, "ABNORMAL"),
                change("a", 210, "NORMAL"),
                change("b", 90, "ABNORMAL")),
            100,
            400,
            100);
    assertThat(buckets)
        .containsExactly(
            new ThrottleReadings.Bucket(100, 2, 0, 0, 2),
            new ThrottleReadings.Bucket(200, 0, 0, 1, 2),
            new ThrottleReadings.Bucket(300, 0, 0, 0, 1));
  }
}
