package io.sluice.tuner.tier.outcome;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.contracts.Tier;
import io.sluice.tuner.store.ControlDatabase;
import io.sluice.tuner.testing.Chdb;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The outcome store on ClickHouse's real engine (chdb behind the test HTTP front) with the real
 * clickhouse-jdbc driver; each test gets its own database, created by the store's first call.
 */
class ClickHouseOutcomeStoreITCase extends OutcomeStoreContract {
  @RegisterExtension static final Chdb CHDB = new Chdb("outcomes");
  private String url;

  @Override
  protected OutcomeStore freshStore() {
    url = CHDB.freshUrl();
    return new ClickHouseOutcomeStore(ControlDatabase.open(url), "test");
  }

  @Override
  protected OutcomeStore reopen(OutcomeStore store) {
    store.close();
    return new ClickHouseOutcomeStore(ControlDatabase.open(url), "test");
  }

  @Test
  void aSaveRepeatedAfterAFailureCountsOnce() {
    try (OutcomeStore store = freshStore()) {
      RunOutcome ran =
          attempt("r1", 1, "root.etl", Tier.ESS, RunReport.Status.STARTED, 1_000, 1_000);
      List<OutcomeMerge.Count> counts =
          List.of(
              count(Tier.CELEBORN, "root.etl", OutcomeMerge.Kind.ROUTED),
              count(Tier.ESS, "root.etl", OutcomeMerge.Kind.RAN));
      store.save(ran, counts, 1_000);
      store.save(ran, counts, 1_001); // the retry of a save whose events were written
      assertThat(store.totals()).extracting(OutcomeStore.CountRow::count).containsExactly(1L, 1L);
      assertThat(store.attempts("r1")).containsExactly(ran);
    }
  }
}
