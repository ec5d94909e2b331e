package io.sluice.tuner.tier;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.tuner.store.ControlDatabase;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class H2TierStoreTest extends TierStoreContract {
  @TempDir Path dir;

  private String url() {
    return "jdbc:h2:file:" + dir.resolve("tiers").toAbsolutePath();
  }

  @Override
  protected TierStore freshStore() {
    return new H2TierStore(ControlDatabase.open(url()), "test");
  }

  @Override
  protected TierStore reopen(TierStore store) {
    store.close();
    return new H2TierStore(ControlDatabase.open(url()), "test");
  }

  /** The recorder's batches: one write for several jobs, each job trimmed to its newest few. */
  @Test
  void aBatchOfDecisionsIsRecordedInOrderAndEachJobKeepsItsNewest() {
    TierStore store = new H2TierStore(ControlDatabase.open(url()), "test", 3);
    List<TierDecision> batch = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      batch.add(TierStoreTest.decision("job-a", "a" + i, 1_000 + i));
      batch.add(TierStoreTest.decision("job-b", "b" + i, 2_000 + i));
    }
    store.recordAll(batch);
    store.recordAll(List.of(TierStoreTest.decision("job-b", "b5", 3_000)));
    assertThat(store.decisions("job-a", 10))
        .extracting(TierDecision::submissionId)
        .containsExactly("a4", "a3", "a2");
    assertThat(store.decisions("job-b", 10))
        .extracting(TierDecision::submissionId)
        .containsExactly("b5", "b4", "b3");
  }
}
