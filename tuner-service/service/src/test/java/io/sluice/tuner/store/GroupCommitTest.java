package io.sluice.tuner.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.tuner.testing.Conditions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link GroupCommit}: concurrent callers are written in groups, each answered once with its own
 * result and only after its group's write returned; a failing write fails every caller of its
 * group; a caller that gave up is skipped by a group that had not started; a full queue answers
 * busy.
 */
class GroupCommitTest {
  static final Duration WAIT = Duration.ofSeconds(30);

  final ExecutorService callers = Executors.newFixedThreadPool(32);
  GroupCommit<Integer, String> commits;

  @AfterEach
  void stop() {
    callers.shutdownNow();
    if (commits != null) {
      commits.close();
    }
  }

  @Test
  void concurrentCallersAreWrittenInGroupsAndEachAnsweredOnceAfterItsGroup() throws Exception {
    List<List<Integer>> groups = Collections.synchronizedList(new ArrayList<>());
    Map<Integer, Integer> written = new ConcurrentHashMap<>();
    CountDownLatch firstGroupStarted = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    commits =
        new GroupCommit<>(
            "test-commit",
            group -> {
              firstGroupStarted.countDown();
              await(release); // the first group holds the committer: the others gather meanwhile
              List<Integer> values = group.stream().map(GroupCommit.Item::value).toList();
              groups.add(values);
              values.forEach(v -> written.merge(v, 1, Integer::sum));
              group.forEach(i -> i.done("ok-" + i.value()));
            },
            8,
            1_000);
    List<Future<String>> answers = new ArrayList<>();
    answers.add(callers.submit(() -> commits.submit(0, WAIT)));
    assertThat(firstGroupStarted.await(30, TimeUnit.SECONDS)).isTrue();
    for (int i = 1; i < 20; i++) {
      int v = i;
      answers.add(callers.submit(() -> commits.submit(v, WAIT)));
    }
    Conditions.waitUntil("19 items queued", () -> commits.waiting() == 19);
    release.countDown();
    for (int i = 0; i < 20; i++) {
      assertThat(answers.get(i).get(30, TimeUnit.SECONDS)).isEqualTo("ok-" + i);
    }
    assertThat(written).hasSize(20).allSatisfy((v, times) -> assertThat(times).isEqualTo(1));
    // the lone first item went at once; the 19 that gathered behind it went in groups of at most 8
    assertThat(groups.get(0)).containsExactly(0);
    assertThat(groups.subList(1, groups.size())).extracting(List::size).containsExactly(8, 8, 3);
  }

  @Test
  void aFailingWriteFailsEveryCallerOfItsGroupAndAcknowledgesNone() throws Exception {
    CountDownLatch firstGroupStarted = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    List<Integer> acknowledged = Collections.synchronizedList(new ArrayList<>());
    commits =
        new GroupCommit<>(
            "test-commit",
            group -> {
              firstGroupStarted.countDown();
              await(release);
              if (group.size() > 1) {
                throw new StoreGateway.Unavailable("error", "the store went away", null);
              }
              group.forEach(
                  i -> {
                    acknowledged.add(i.value());
                    i.done("ok");
                  });
            },
            64,
            1_000);
    Future<String> lone = callers.submit(() -> commits.submit(0, WAIT));
    assertThat(firstGroupStarted.await(30, TimeUnit.SECONDS)).isTrue();
    List<Future<String>> group = new ArrayList<>();
    for (int i = 1; i <= 10; i++) {
      int v = i;
      group.add(callers.submit(() -> commits.submit(v, WAIT)));
    }
    Conditions.waitUntil("10 items queued", () -> commits.waiting() == 10);
    release.countDown();
    assertThat(lone.get(30, TimeUnit.SECONDS)).isEqualTo("ok");
    for (Future<String> f : group) {
      assertThatThrownBy(() -> f.get(30, TimeUnit.SECONDS))
          .hasCauseInstanceOf(StoreGateway.Unavailable.class)
          .hasMessageContaining("the store went away");
    }
    assertThat(acknowledged).containsExactly(0);
  }

  @Test
  void aCallerThatGaveUpIsSkippedByAGroupThatHadNotStarted() throws Exception {
    CountDownLatch taken = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    List<Integer> writtenValues = Collections.synchronizedList(new ArrayList<>());
    commits =
        new GroupCommit<>(
            "test-commit",
            group -> {
              taken.countDown();
              await(release);
              for (GroupCommit.Item<Integer, String> i : group) {
                if (!i.abandoned()) {
                  writtenValues.add(i.value());
                }
                i.done("ok");
              }
            },
            64,
            1_000);
    Future<String> first = callers.submit(() -> commits.submit(1, WAIT));
    assertThat(taken.await(30, TimeUnit.SECONDS)).isTrue(); // the committer holds item 1
    assertThatThrownBy(() -> commits.submit(2, Duration.ofMillis(50)))
        .isInstanceOf(StoreGateway.Unavailable.class)
        .hasMessage("no answer from the store within 50 ms")
        .satisfies(e -> assertThat(((StoreGateway.Unavailable) e).reason()).isEqualTo("timeout"));
    release.countDown();
    assertThat(first.get(30, TimeUnit.SECONDS)).isEqualTo("ok");
    assertThat(commits.submit(3, WAIT)).isEqualTo("ok");
    assertThat(writtenValues).containsExactly(1, 3);
  }

  @Test
  void aFullQueueAnswersBusyAtOnce() throws Exception {
    CountDownLatch taken = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    commits =
        new GroupCommit<>(
            "test-commit",
            group -> {
              taken.countDown();
              await(release);
              group.forEach(i -> i.done("ok"));
            },
            1,
            2);
    List<Future<String>> held = new ArrayList<>();
    held.add(callers.submit(() -> commits.submit(1, WAIT)));
    assertThat(taken.await(30, TimeUnit.SECONDS)).isTrue(); // the committer holds item 1
    held.add(callers.submit(() -> commits.submit(2, WAIT)));
    held.add(callers.submit(() -> commits.submit(3, WAIT)));
    Conditions.waitUntil("2 items queued", () -> commits.waiting() == 2);
    assertThatThrownBy(() -> commits.submit(4, WAIT))
        .isInstanceOf(StoreGateway.Unavailable.class)
        .satisfies(e -> assertThat(((StoreGateway.Unavailable) e).reason()).isEqualTo("busy"));
    release.countDown();
    for (Future<String> f : held) {
      assertThat(f.get(30, TimeUnit.SECONDS)).isEqualTo("ok");
    }
  }

  @Test
  void limitsAreCheckedNamingTheValues() {
    assertThatThrownBy(() -> new GroupCommit<Integer, String>("c", g -> {}, 0, 10))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("c: max group 0 and queue 10 must be >= 1");
  }

  static void await(CountDownLatch latch) {
    try {
      if (!latch.await(30, TimeUnit.SECONDS)) {
        throw new IllegalStateException("latch not released within 30 s");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
