package io.sluice.tuner.store;

import io.github.resilience4j.circuitbreaker.CallNotPermittedException;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.timelimiter.TimeLimiter;
import io.github.resilience4j.timelimiter.TimeLimiterConfig;
import io.github.resilience4j.timelimiter.TimeLimiterRegistry;
import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.store.HistoryStore;
import io.sluice.store.HistoryStores;
import io.sluice.tuner.TunerProperties;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.stereotype.Component;

/**
 * The only way to the history store and the decision log. Both are opened lazily (the service
 * starts and answers while the store is down) and reopened after a failure. Every call runs on a
 * small bounded pool under a resilience4j circuit breaker ({@link StoreBreaker}: a short open
 * period with half-open probes) and a time limiter: {@code store-submission} ({@code
 * sluice.tuner.submission-timeout}) or {@code store-read} ({@code sluice.tuner.read-timeout}). A
 * timed-out call is abandoned, never interrupted: interrupting a thread in the middle of H2's file
 * I/O closes the database file's channel (measured: every later call then failed with "The object
 * is already closed" until the store was reopened), so the work finishes on its store thread and a
 * full pool answers {@code busy}. A call that cannot be answered throws {@link Unavailable} with
 * the reason: {@code timeout}, {@code circuit_open}, {@code busy} (pool and queue full, or the time
 * limit passed while the call still waited for a thread) or {@code error}.
 *
 * <p>The breaker judges the store, not the service's load: a call's verdict comes from its work's
 * real outcome when it ends (a slow answer is a slow success, past the breaker's slow-call
 * threshold counted as slow), not from the caller's time limit; a call that never reached the store
 * (refused, or dropped while queued: its work is then skipped) gives none. Only when the limit
 * passes while no call at all has finished within the slow-call threshold (a hung store) does the
 * caller count a failure at once. So a burst of load that makes answers late fails those
 * submissions open without opening the breaker for everyone's next open period, while a store that
 * is down, failing or hung still opens it.
 */
@Component
public class StoreGateway implements DisposableBean {
  private static final Logger LOG = LoggerFactory.getLogger(StoreGateway.class);
  static final long WARM_UP_RETRY_MS = 1_000;

  /** Work done with the store and the log on a store thread. */
  @FunctionalInterface
  public interface Work<T> {
    T run(HistoryStore store, DecisionLog log);
  }

  /** Which time limit a call gets. */
  public enum Budget {
    SUBMISSION,
    READ
  }

  /** The store could not answer in time or at all. */
  public static final class Unavailable extends RuntimeException {
    private final String reason;

    public Unavailable(String reason, String message, Throwable cause) {
      super(message, cause);
      this.reason = reason;
    }

    /** timeout, circuit_open, busy or error. */
    public String reason() {
      return reason;
    }
  }

  /**
   * The store refused the call's data (SQL state class 22 "data exception" or 23 "integrity
   * constraint", e.g. a value longer than its column): a client error, answered 400, that never
   * counts against the circuit breaker.
   */
  public static final class Rejected extends RuntimeException {
    Rejected(String message, Throwable cause) {
      super(message, cause);
    }
  }

  /**
   * Thrown by store work that refuses a request's data itself (a bound reached): handled like
   * {@link Rejected}.
   */
  public static final class Refused extends RuntimeException {
    public Refused(String message) {
      super(message);
    }
  }

  private record Handles(HistoryStore store, DecisionLog log) {}

  /**
   * A client-data failure carried out of the breaker as a value, so the breaker records a success.
   */
  private record Refusal(RuntimeException error) {}

  /** Where a call's work is: waiting for a store thread, running, or dropped by its caller. */
  private static final int QUEUED = 0;

  private static final int RUNNING = 1;
  private static final int DROPPED = 2;

  private final String url;
  private final ControlDatabase control;
  private final CircuitBreaker breaker;
  private final TimeLimiter submissionLimiter;
  private final TimeLimiter readLimiter;
  private final ExecutorService pool;
  private final long submissionQueueWaitNs;
  private final MeterRegistry meters;
  private final java.util.Map<Duration, TimeLimiter> customLimiters =
      new java.util.concurrent.ConcurrentHashMap<>();
  private final Object openLock = new Object();
  private final FailureLog failureLog = new FailureLog(LOG, System::nanoTime);

  /**
   * The reasons a store call is answered without the store (the {@code reason} tag of the
   * unavailable counter).
   */
  private static final List<String> UNAVAILABLE_REASONS =
      List.of("circuit_open", "timeout", "busy", "error");

  private final java.util.Map<String, Boolean> knownOps =
      new java.util.concurrent.ConcurrentHashMap<>();
  private volatile Handles handles;
  private final BreakerWarmUp breakerWarmUp;
  private final ScheduledExecutorService warmUp;
  private volatile boolean answered;
  private volatile long lastAnsweredNs = System.nanoTime() - TimeUnit.DAYS.toNanos(1);
  private volatile String warmUpError = "not tried yet";

  public StoreGateway(
      TunerProperties props,
      ControlDatabase control,
      CircuitBreakerRegistry breakers,
      TimeLimiterRegistry limiters,
      MeterRegistry meters) {
    this.url = props.storeUrl();
    this.control = control;
    this.meters = meters;
    this.breaker = StoreBreaker.of(breakers, props);
    this.breakerWarmUp = new BreakerWarmUp(breaker, props.breakerWarmUp(), System::nanoTime);
    meters.gauge(
        "sluice.tuner.store.breaker.warming",
        breakerWarmUp,
        w -> w.phase() == BreakerWarmUp.Phase.WARMING ? 1 : 0);
    this.submissionLimiter =
        limiters.timeLimiter(
            "store-submission",
            TimeLimiterConfig.custom()
                .timeoutDuration(props.submissionTimeout())
                .cancelRunningFuture(false)
                .build());
    this.submissionQueueWaitNs = props.submissionQueueWait().toNanos();
    this.readLimiter =
        limiters.timeLimiter(
            "store-read",
            TimeLimiterConfig.custom()
                .timeoutDuration(props.readTimeout())
                .cancelRunningFuture(false)
                .build());
    AtomicInteger n = new AtomicInteger();
    this.pool =
        new ThreadPoolExecutor(
            props.storeThreads(),
            props.storeThreads(),
            60,
            TimeUnit.SECONDS,
            props.storeQueue() == 0
                ? new SynchronousQueue<>()
                : new ArrayBlockingQueue<>(props.storeQueue()),
            r -> {
              Thread t = new Thread(r, "sluice-store-" + n.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
    this.warmUp =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "sluice-store-warm-up");
              t.setDaemon(true);
              return t;
            });
  }

  /** Runs work against the store within the budget's time limit and the circuit breaker. */
  public <T> T call(String op, Budget budget, Work<T> work) {
    return budget == Budget.SUBMISSION
        ? call(op, submissionLimiter, submissionQueueWaitNs, work)
        : call(op, readLimiter, 0, work);
  }

  /**
   * Runs work against the store within its own time limit (e.g. a shorter one for a second read on
   * the submission path, so that the two together stay bounded) and the same circuit breaker.
   */
  public <T> T call(String op, Duration timeout, Work<T> work) {
    return call(
        op,
        customLimiters.computeIfAbsent(
            timeout,
            t ->
                TimeLimiter.of(
                    "store-" + t.toMillis() + "ms",
                    TimeLimiterConfig.custom()
                        .timeoutDuration(t)
                        .cancelRunningFuture(false)
                        .build())),
        0,
        work);
  }

  /**
   * @param queueWaitNs how long the call may wait for a store thread while the store answers
   *     others; its work then gets the limiter's time from when it starts. At most the limit: the
   *     limit covers waiting and work together.
   */
  @SuppressWarnings("unchecked")
  private <T> T call(String op, TimeLimiter limiter, long queueWaitNs, Work<T> work) {
    countersOf(op);
    Duration limit = limiter.getTimeLimiterConfig().getTimeoutDuration();
    if (!breaker.tryAcquirePermission()) {
      throw unavailable(
          op,
          "circuit_open",
          "the store's circuit breaker is open",
          CallNotPermittedException.createCallNotPermittedException(breaker));
    }
    Verdict verdict = new Verdict(breaker);
    AtomicInteger stage = new AtomicInteger(QUEUED);
    CompletableFuture<Long> started = new CompletableFuture<>();
    long calledNs = System.nanoTime();
    Future<Object> future;
    try {
      future = pool.submit(() -> run(work, stage, started, verdict));
    } catch (RejectedExecutionException e) {
      verdict.none();
      throw unavailable(op, "busy", "every store thread is busy and the queue is full", e);
    }
    Object result;
    try {
      result = await(future, started, calledNs, limit.toNanos(), queueWaitNs);
      limiter.onSuccess();
    } catch (TimeoutException e) {
      limiter.onError(e);
      boolean queued = stage.compareAndSet(QUEUED, DROPPED);
      if (storeAnswered()) {
        // the store answers other calls: this one waited for the service (queued), or its own
        // work is slow; the work, if it runs, gives the breaker its verdict when it ends
        if (queued) {
          verdict.none();
          throw unavailable(
              op,
              "busy",
              "no store thread became free within "
                  + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - calledNs)
                  + " ms ("
                  + waiting()
                  + " calls wait)",
              e);
        }
      } else {
        verdict.failed(limit.toNanos(), e); // nothing answers: the store hangs
      }
      throw unavailable(
          op, "timeout", "no answer from the store within " + limit.toMillis() + " ms", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw unavailable(op, "error", "interrupted while waiting for the store", e);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      throw unavailable(
          op,
          "error",
          cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage(),
          cause);
    }
    if (result instanceof Refusal r) {
      meters.counter("sluice.tuner.store.rejected", "op", op).increment();
      throw new Rejected(
          "the store refused the request's data: " + rootMessage(r.error()), r.error());
    }
    return (T) result;
  }

  /**
   * Waits for a call's answer: the limit from the call, as for every call; past it, while the store
   * answers other calls, a call that waited for a thread (a burst, a JVM still compiling the store
   * path) may wait up to {@code queueWaitNs} in all for one, and its work then gets the limit from
   * when it started. A store that answers nothing, or work that started in time and is slow, still
   * times out at the limit.
   *
   * @throws TimeoutException when the call is still queued past its wait, or its work past the
   *     limit
   */
  private Object await(
      Future<Object> future,
      CompletableFuture<Long> started,
      long calledNs,
      long limitNs,
      long queueWaitNs)
      throws TimeoutException, InterruptedException, ExecutionException {
    try {
      return future.get(limitNs, TimeUnit.NANOSECONDS);
    } catch (TimeoutException atLimit) {
      if (queueWaitNs <= limitNs || !storeAnswered()) {
        throw atLimit;
      }
      long startedNs;
      try {
        long left = calledNs + queueWaitNs - System.nanoTime();
        startedNs = started.get(Math.max(0, left), TimeUnit.NANOSECONDS);
      } catch (TimeoutException stillQueued) {
        throw atLimit;
      }
      long workLeft = startedNs + limitNs - System.nanoTime();
      if (workLeft <= 0) {
        throw atLimit;
      }
      return future.get(workLeft, TimeUnit.NANOSECONDS);
    }
  }

  /**
   * A call's work on a store thread; skipped when its caller gave up before a thread took it. Gives
   * the breaker its verdict from the store's real answer (however late), not from the caller's time
   * limit: a slow answer is a (slow) success, an error a failure, a client-data refusal a success.
   */
  private Object run(
      Work<?> work, AtomicInteger stage, CompletableFuture<Long> started, Verdict verdict) {
    if (!stage.compareAndSet(QUEUED, RUNNING)) {
      verdict.none();
      return null; // its caller was answered already
    }
    long t0 = System.nanoTime();
    started.complete(t0);
    Handles h = null;
    try {
      h = handles();
      Object result = work.run(h.store, h.log);
      verdict.succeeded(System.nanoTime() - t0);
      breakerWarmUp.succeeded();
      return result;
    } catch (RuntimeException e) {
      if (clientData(e)) {
        verdict.succeeded(System.nanoTime() - t0);
        return new Refusal(e); // the store is fine: keep the handles
      }
      if (h != null) {
        reset(h);
      }
      verdict.failed(System.nanoTime() - t0, e);
      throw e;
    } finally {
      lastAnsweredNs = System.nanoTime();
    }
  }

  /**
   * The breaker's verdict on one call, given once: by the call's work when it ends, or by the
   * caller when its time limit passed while the store answered nothing at all (a hung store), or
   * none (the call never reached the store: refused or dropped while queued).
   */
  private static final class Verdict {
    private final CircuitBreaker breaker;
    private final AtomicBoolean given = new AtomicBoolean();

    Verdict(CircuitBreaker breaker) {
      this.breaker = breaker;
    }

    void succeeded(long nanos) {
      if (given.compareAndSet(false, true)) {
        breaker.onSuccess(nanos, TimeUnit.NANOSECONDS);
      }
    }

    void failed(long nanos, Throwable e) {
      if (given.compareAndSet(false, true)) {
        breaker.onError(nanos, TimeUnit.NANOSECONDS, e);
      }
    }

    void none() {
      if (given.compareAndSet(false, true)) {
        breaker.releasePermission();
      }
    }
  }

  /**
   * True for a data or constraint error of the SQL standard (state class 22 or 23) anywhere in the
   * chain.
   */
  static boolean clientData(Throwable e) {
    for (Throwable c = e; c != null; c = c.getCause()) {
      if (c instanceof Refused) {
        return true;
      }
      if (c instanceof java.sql.SQLException s
          && s.getSQLState() != null
          && (s.getSQLState().startsWith("22") || s.getSQLState().startsWith("23"))) {
        return true;
      }
    }
    return false;
  }

  private static String rootMessage(Throwable e) {
    Throwable c = e;
    while (c.getCause() != null && c.getCause() != c) {
      c = c.getCause();
    }
    String m = c.getMessage() == null ? c.getClass().getSimpleName() : c.getMessage();
    int nl = m.indexOf('\n');
    m = nl < 0 ? m : m.substring(0, nl);
    return m.length() > 300 ? m.substring(0, 300) + "..." : m;
  }

  /**
   * Registers {@code sluice.tuner.store.unavailable} at zero for every reason the first time an
   * operation is called (the operations are a fixed set in the code), so that a scrape shows the
   * series before the first failure and {@code increase()} in an alert counts that failure.
   */
  private void countersOf(String op) {
    knownOps.computeIfAbsent(
        op,
        o -> {
          for (String reason : UNAVAILABLE_REASONS) {
            meters.counter("sluice.tuner.store.unavailable", "op", o, "reason", reason);
          }
          return Boolean.TRUE;
        });
  }

  private Unavailable unavailable(String op, String reason, String message, Throwable cause) {
    meters.counter("sluice.tuner.store.unavailable", "op", op, "reason", reason).increment();
    failureLog.log(op, reason, message);
    return new Unavailable(reason, message, cause);
  }

  /**
   * True when some store call finished within the breaker's slow-call threshold: the store answers,
   * so a call that timed out was held up by the service's own load or is merely slow.
   */
  private boolean storeAnswered() {
    return System.nanoTime() - lastAnsweredNs
        < breaker.getCircuitBreakerConfig().getSlowCallDurationThreshold().toNanos();
  }

  /** Calls waiting for a store thread. */
  int waiting() {
    return pool instanceof ThreadPoolExecutor t ? t.getQueue().size() : 0;
  }

  /**
   * Opens the store and the log in the background once the service is up, so that the first
   * submission does not pay for it, and tries again every {@value #WARM_UP_RETRY_MS} ms until the
   * store has answered once ({@link #answered()}: the schema is migrated and the decision log's
   * tables exist). The probe runs on its own thread, outside the breaker: retrying against a store
   * that is down must not open it for the submissions.
   */
  @org.springframework.context.event.EventListener(
      org.springframework.boot.context.event.ApplicationReadyEvent.class)
  public void warmUp() {
    warmUp.execute(this::probe);
  }

  private void probe() {
    Handles h = null;
    try {
      h = handles();
      h.store.runsOfJob("sluice.warm-up", 1);
      breakerWarmUp.succeeded();
      answered = true;
      LOG.info("history store ready: {}", h.log.describe());
      warmUp.shutdown();
    } catch (RuntimeException e) {
      boolean first = "not tried yet".equals(warmUpError);
      warmUpError = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
      (first ? LOG.atWarn() : LOG.atDebug())
          .log(
              "history store not reachable at start-up (submissions get empty "
                  + "overlays until it is; retrying every {} ms): {}",
              WARM_UP_RETRY_MS,
              warmUpError);
      if (h != null) {
        reset(h);
      }
      try {
        warmUp.schedule(this::probe, WARM_UP_RETRY_MS, TimeUnit.MILLISECONDS);
      } catch (RejectedExecutionException stopped) {
        LOG.debug("warm-up stopped: {}", stopped.getMessage());
      }
    }
  }

  /** True once the store has answered (opened, migrated, read); stays true. */
  public boolean answered() {
    return answered;
  }

  /** Why the store has not answered yet (the last warm-up error). */
  public String warmUpError() {
    return warmUpError;
  }

  /** The time limit of a budget. */
  public Duration timeout(Budget budget) {
    return (budget == Budget.SUBMISSION ? submissionLimiter : readLimiter)
        .getTimeLimiterConfig()
        .getTimeoutDuration();
  }

  private Handles handles() {
    Handles h = handles;
    if (h != null) {
      return h;
    }
    synchronized (openLock) {
      if (handles != null) {
        return handles;
      }
      HistoryStore store = HistoryStores.open(url);
      DecisionLog log;
      try {
        // the store accepts only H2 and ClickHouse URLs; the log lives in the same database
        log =
            control.clickHouse()
                ? new ClickHouseDecisionLog(control, store.describe())
                : new H2DecisionLog(control, store.describe());
      } catch (RuntimeException e) {
        store.close();
        throw e;
      }
      handles = new Handles(store, log);
      return handles;
    }
  }

  /**
   * Drops failed handles so that the next call reopens; never waits for a call stuck in opening.
   */
  private void reset(Handles failed) {
    boolean mine;
    synchronized (this) {
      mine = handles == failed;
      if (mine) {
        handles = null;
      }
    }
    if (mine) {
      closeQuietly(failed);
    }
  }

  private void closeQuietly(Handles h) {
    try {
      h.store.close();
    } catch (RuntimeException e) {
      LOG.debug("closing the store: {}", e.getMessage());
    }
    h.log.close();
  }

  @Override
  public void destroy() {
    warmUp.shutdownNow();
    pool.shutdownNow();
    Handles h;
    synchronized (this) {
      h = handles;
      handles = null;
    }
    // a call stuck in opening holds openLock, never this monitor: shutting down does not wait for
    // it
    if (h != null) {
      closeQuietly(h);
    }
  }
}
