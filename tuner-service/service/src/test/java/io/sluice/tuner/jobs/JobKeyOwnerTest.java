package io.sluice.tuner.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.model.AppRun;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A job key belongs to the cluster, queue and user of its oldest run: others' runs under it are
 * left out.
 */
class JobKeyOwnerTest {
  static AppRun run(String appId, String queue, String user, long start) {
    return new AppRun(
        "prod",
        appId,
        "1",
        "etl/nightly",
        "nightly",
        user,
        queue,
        0,
        start,
        start + 1000,
        "SUCCEEDED",
        "3.5.7",
        Map.of(),
        Map.of(),
        List.of(),
        List.of(),
        start + 1000);
  }

  @Test
  void runsOfAnotherOwnerUnderTheSameKeyAreLeftOut() {
    List<AppRun> newestFirst =
        List.of(
            run("app-4", "etl", "etl-bot", 4),
            run("app-3", "adhoc", "mallory", 3),
            run("app-2", "etl", "etl-bot", 2),
            run("app-1", "etl", "etl-bot", 1));
    assertThat(JobTuning.owned(newestFirst))
        .extracting(AppRun::appId)
        .containsExactly("app-4", "app-2", "app-1");
  }

  @Test
  void oneRunOrOneOwnerIsKeptAsIs() {
    List<AppRun> one = List.of(run("app-1", "adhoc", "mallory", 1));
    assertThat(JobTuning.owned(one)).isEqualTo(one);
    List<AppRun> same =
        List.of(run("app-2", "etl", "etl-bot", 2), run("app-1", "etl", "etl-bot", 1));
    assertThat(JobTuning.owned(same)).isEqualTo(same);
  }
}
