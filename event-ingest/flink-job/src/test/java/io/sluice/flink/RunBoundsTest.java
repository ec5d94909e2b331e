package io.sluice.flink;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.model.AppRun;
import io.sluice.model.StageProfile;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RunBoundsTest {
  private static StageProfile stage(String name) {
    return new StageProfile(
        "app-1", 1, 0, name, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 10, 10, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0);
  }

  private static AppRun run(String jobKey, String name, String user, List<StageProfile> stages) {
    return new AppRun(
        "c",
        "app-1",
        "",
        jobKey,
        name,
        user,
        "root.q",
        1,
        10,
        20,
        "SUCCEEDED",
        "3.5.7",
        Map.of(),
        Map.of(),
        stages,
        List.of(),
        20);
  }

  @Test
  void aRunWithinBoundsIsReturnedAsIs() {
    AppRun r = run("k", "n", "u", List.of(stage("s")));
    RunBounds.Bounded b = RunBounds.bound(r);
    assertThat(b.truncated()).isZero();
    assertThat(b.run()).isSameAs(r);
  }

  @Test
  void overLongFieldsAreCutToTheirLimitEndingInAnEllipsisAndCounted() {
    String longName = "n".repeat(100 * 1024);
    RunBounds.Bounded b =
        RunBounds.bound(
            run(
                "k".repeat(RunBounds.JOB_KEY + 1),
                longName,
                "u".repeat(RunBounds.USER),
                List.of(stage("s".repeat(5000)), stage("ok"))));
    assertThat(b.truncated())
        .isEqualTo(3); // job key, name, one stage name; the user is exactly at its limit
    assertThat(b.run().jobKey())
        .hasSize(RunBounds.JOB_KEY)
        .isEqualTo("k".repeat(RunBounds.JOB_KEY - 1) + "…");
    assertThat(b.run().name()).hasSize(RunBounds.NAME).endsWith("n…");
    assertThat(b.run().user()).hasSize(RunBounds.USER);
    assertThat(b.run().stages().get(0).name()).hasSize(RunBounds.STAGE_NAME);
    assertThat(b.run().stages().get(1).name()).isEqualTo("ok");
    assertThat(b.run().stages().get(0).executorRunTimeMs()).isEqualTo(10);
  }

  @Test
  void aCutNeverSplitsASurrogatePair() {
    String s =
        "a".repeat(RunBounds.QUEUE - 2)
            + "😀"
            + "tail"; // the emoji's high surrogate is the last kept char
    int[] n = {0};
    String cut = RunBounds.cut(s, RunBounds.QUEUE, n);
    assertThat(n[0]).isEqualTo(1);
    assertThat(cut).isEqualTo("a".repeat(RunBounds.QUEUE - 2) + "…");
  }
}
