package io.sluice.tuner.tier;

import io.sluice.model.Json;
import java.time.Clock;
import java.util.function.Function;

/**
 * The rule set in force, held in memory (decisions read it without touching the store) and changed
 * only through here: each change is saved with its audit entry first and takes effect for the next
 * decision once saved. On first load an empty store is seeded with the configured rules (audited as
 * {@code configuration}); until the rules are loaded, {@link #current()} is null and jobs stay on
 * the ESS.
 */
public final class RuleBook {
  /**
   * Runs work against the tier store (the Spring side guards it with the store's breaker and time
   * limit).
   */
  public interface StoreCall {
    <T> T call(String op, Function<TierStore, T> work);
  }

  /** The rules are not loaded (the store could not be read yet). */
  public static final class NotLoaded extends RuntimeException {
    NotLoaded(String message) {
      super(message);
    }
  }

  /** No rule or deny entry with that id. */
  public static final class NotFound extends RuntimeException {
    NotFound(String message) {
      super(message);
    }
  }

  public static final String CONFIGURATION = "configuration";

  private final StoreCall store;
  private final RuleSet seed;
  private final Clock clock;
  private volatile RuleSet current;
  private volatile String loadError = "not loaded yet";

  public RuleBook(StoreCall store, RuleSet seed, Clock clock) {
    this.store = store;
    this.seed = seed;
    this.clock = clock;
  }

  /** Loads (or seeds) the rules if not done yet; true when they are loaded. Never throws. */
  public boolean tryLoad() {
    return tryLoad(store);
  }

  /**
   * As {@link #tryLoad()} through another way to the store (the background loader goes to the tier
   * store directly, so that retrying against a store that is down does not count against the
   * store's circuit breaker).
   */
  public synchronized boolean tryLoad(StoreCall via) {
    if (current != null) {
      return true;
    }
    try {
      current =
          via.call(
              "tier-rules-load",
              st ->
                  st.load()
                      .orElseGet(
                          () -> {
                            st.save(
                                seed,
                                new AuditEntry(
                                    0,
                                    clock.millis(),
                                    CONFIGURATION,
                                    "SEED",
                                    "*",
                                    null,
                                    Json.write(seed),
                                    seed.version()));
                            return seed;
                          }));
      return true;
    } catch (RuntimeException e) {
      loadError = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
      return false;
    }
  }

  /** The rules in force, or null while not loaded. */
  public RuleSet current() {
    return current;
  }

  /** Why the rules are not loaded. */
  public String loadError() {
    return loadError;
  }

  public synchronized RuleSet putRule(String actor, RolloutRule rule) {
    RuleSet.validRule(rule);
    RuleSet cur = require();
    RolloutRule before = cur.rule(rule.id());
    return save(cur.withRule(rule), actor, "PUT_RULE", rule.id(), before, rule);
  }

  public synchronized RuleSet deleteRule(String actor, String id) {
    RuleSet cur = require();
    RolloutRule before = cur.rule(id);
    if (before == null) {
      throw new NotFound("no rollout rule " + id);
    }
    return save(cur.withoutRule(id), actor, "DELETE_RULE", id, before, null);
  }

  public synchronized RuleSet putDeny(String actor, DenyEntry deny) {
    RuleSet.validDeny(deny);
    RuleSet cur = require();
    DenyEntry before = cur.deny(deny.id());
    return save(cur.withDeny(deny), actor, "PUT_DENY", deny.id(), before, deny);
  }

  public synchronized RuleSet deleteDeny(String actor, String id) {
    RuleSet cur = require();
    DenyEntry before = cur.deny(id);
    if (before == null) {
      throw new NotFound("no deny entry " + id);
    }
    return save(cur.withoutDeny(id), actor, "DELETE_DENY", id, before, null);
  }

  private RuleSet require() {
    if (!tryLoad()) {
      throw new NotLoaded("the rollout rules are not loaded: " + loadError);
    }
    return current;
  }

  private RuleSet save(
      RuleSet next, String actor, String action, String id, Object before, Object after) {
    AuditEntry a =
        new AuditEntry(
            0,
            clock.millis(),
            actor,
            action,
            id,
            before == null ? null : Json.write(before),
            after == null ? null : Json.write(after),
            next.version());
    store.call(
        "tier-rules-save",
        st -> {
          st.save(next, a);
          return null;
        });
    current = next;
    return next;
  }
}
