package io.sluice.tuner.startup;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.model.AppRun;
import io.sluice.tuner.StoreFixtures;
import io.sluice.tuner.store.StoreGateway;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The warm-up's rounds on a clock that each replay advances by a set amount. */
class SubmissionWarmUpTest {
  private static final long MS = 1_000_000L;
  private static final long FAST = 50 * MS;
  private static final long DEADLINE = 20_000 * MS;

  private final AtomicLong clock = new AtomicLong();
  private final AtomicInteger counted = new AtomicInteger();
  private final List<String> replayed = new ArrayList<>();

  private SubmissionWarmUp.Result run(List<String> jobs, long replayNanos) {
    return SubmissionWarmUp.rounds(
        jobs,
        DEADLINE,
        FAST,
        clock::get,
        job -> {
          replayed.add(job);
          clock.addAndGet(replayNanos);
          if (job.equals("down")) {
            throw new StoreGateway.Unavailable("timeout", "no answer", null);
          }
        },
        counted::incrementAndGet);
  }

  @Test
  void fastReplaysEndTheWarmUpAfterTheMinimumInWholeRounds() {
    SubmissionWarmUp.Result r = run(List.of("a", "b", "c"), 1 * MS);
    assertThat(r).isEqualTo(new SubmissionWarmUp.Result(3, SubmissionWarmUp.MIN_REPLAYS, 0, true));
    assertThat(counted.get()).isEqualTo(SubmissionWarmUp.MIN_REPLAYS);
    assertThat(replayed.subList(0, 4)).containsExactly("a", "b", "c", "a");
    assertThat(clock.get()).isEqualTo(SubmissionWarmUp.MIN_REPLAYS * MS);
  }

  @Test
  void slowReplaysRunUntilTheBound() {
    SubmissionWarmUp.Result r = run(List.of("a"), 60 * MS);
    // a replay starts while the clock is before the deadline: at 0, 60, ..., 19,980 ms
    assertThat(r).isEqualTo(new SubmissionWarmUp.Result(1, 334, 0, false));
    assertThat(counted.get()).isEqualTo(334);
  }

  @Test
  void oneSlowReplayInARoundKeepsItWarmingUp() {
    AtomicInteger n = new AtomicInteger();
    SubmissionWarmUp.Result r =
        SubmissionWarmUp.rounds(
            List.of("a"),
            DEADLINE,
            FAST,
            clock::get,
            job -> clock.addAndGet(n.incrementAndGet() == 900 ? 60 * MS : MS),
            () -> {});
    // rounds of 200: the fifth (801..1,000) holds the slow one, the sixth is all fast
    assertThat(r).isEqualTo(new SubmissionWarmUp.Result(1, 1_200, 0, true));
  }

  @Test
  void failedReplaysAreCountedAndTheWarmUpGoesOn() {
    SubmissionWarmUp.Result r = run(List.of("a", "down"), 1 * MS);
    assertThat(r)
        .isEqualTo(
            new SubmissionWarmUp.Result(
                2, SubmissionWarmUp.MIN_REPLAYS, SubmissionWarmUp.MIN_REPLAYS / 2, true));
  }

  @Test
  void noJobsMeansNothingToWarm() {
    assertThat(run(List.of(), MS)).isEqualTo(new SubmissionWarmUp.Result(0, 0, 0, true));
    assertThat(replayed).isEmpty();
  }

  @Test
  void theJobsAreTheRecentRunsDistinctKeysInOrder() {
    AppRun base = StoreFixtures.fold("tiny_blocks-lz4");
    List<AppRun> runs =
        List.of(
            StoreFixtures.variant(base, "q/b", 2, Map.of(), 1, 1),
            StoreFixtures.variant(base, "q/a", 2, Map.of(), 1, 1),
            StoreFixtures.variant(base, "q/b", 1, Map.of(), 1, 1),
            StoreFixtures.variant(base, "q/c", 1, Map.of(), 1, 1));
    assertThat(SubmissionWarmUp.recentJobs(runs)).containsExactly("q/b", "q/a", "q/c");
  }
}
