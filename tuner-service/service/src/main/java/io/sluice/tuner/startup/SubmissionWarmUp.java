package io.sluice.tuner.startup;

import io.sluice.model.AppRun;
import io.sluice.tuner.TunerProperties;
import io.sluice.tuner.jobs.JobTuning;
import io.sluice.tuner.store.StoreGateway;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;

/**
 * Runs the submission path's store work read-only before the service reports ready, so the first
 * submissions of a freshly started JVM do not spend their budget compiling it and fail open: once
 * the store has answered, it replays the most recent jobs ({@link JobTuning#replay}: the same
 * reads, rules and policy as a submission; nothing is recorded and nothing is cached) on the
 * submission budget, round after round, until a round of {@value #ROUND} replays all finished
 * within a quarter of {@code submission-timeout} after at least {@value #MIN_REPLAYS} replays, or
 * until {@code sluice.tuner.submission-warm-up} has passed, whichever is first. A store that fails
 * during the warm-up only shortens it (each call fails within its budget); an empty store ends it
 * at once. A zero bound turns it off.
 */
class SubmissionWarmUp implements StartupCheck, DisposableBean {
  private static final Logger LOG = LoggerFactory.getLogger(SubmissionWarmUp.class);

  /** Replays per round; the slowest of a round decides whether the path is warm. */
  static final int ROUND = 200;

  /** Replays before a fast round may end the warm-up. */
  static final int MIN_REPLAYS = 1_000;

  /** Recent runs read for the jobs to replay. */
  static final int RECENT_RUNS = 1_000;

  static final long STORE_POLL_MS = 100;

  private final JobTuning tuning;
  private final StoreGateway gateway;
  private final Duration bound;
  private final long fastNanos;
  private final LongSupplier nanoClock;
  private final Thread worker;
  private volatile boolean done;
  private volatile int replays;

  SubmissionWarmUp(JobTuning tuning, StoreGateway gateway, TunerProperties props) {
    this.tuning = tuning;
    this.gateway = gateway;
    this.bound = props.submissionWarmUp();
    this.fastNanos = props.submissionTimeout().toNanos() / 4;
    this.nanoClock = System::nanoTime;
    this.done = bound.isZero();
    this.worker = new Thread(this::run, "sluice-submission-warm-up");
    worker.setDaemon(true);
  }

  @Override
  public String name() {
    return "submission warm-up";
  }

  @Override
  public Optional<String> waitingFor() {
    return done
        ? Optional.empty()
        : Optional.of("the submission path is warming up (" + replays + " replays so far)");
  }

  /** Starts once the application is up, as the store's own start-up probe does. */
  @EventListener(ApplicationReadyEvent.class)
  public void start() {
    if (!done && worker.getState() == Thread.State.NEW) {
      worker.start();
    }
  }

  private void run() {
    try {
      while (!gateway.answered()) {
        Thread.sleep(STORE_POLL_MS); // readiness waits for the store anyway
      }
      long t0 = nanoClock.getAsLong();
      Result r = warm(t0 + bound.toNanos());
      LOG.info(
          "submission warm-up: {} replays of {} jobs in {} ms ({}), {} failed",
          r.replays(),
          r.jobs(),
          (nanoClock.getAsLong() - t0) / 1_000_000,
          r.warm() ? "warm" : "bound reached",
          r.failures());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      LOG.warn("submission warm-up stopped: {}", e.toString());
    } finally {
      done = true;
    }
  }

  record Result(int jobs, int replays, int failures, boolean warm) {}

  private Result warm(long deadline) {
    List<String> jobs;
    try {
      jobs =
          gateway.call(
              "warm-up",
              StoreGateway.Budget.READ,
              (store, log) -> recentJobs(store.recentRuns(RECENT_RUNS)));
    } catch (StoreGateway.Unavailable e) {
      return new Result(0, 0, 1, false);
    }
    return rounds(
        jobs,
        deadline,
        fastNanos,
        nanoClock,
        job ->
            gateway.call(
                "warm-up",
                StoreGateway.Budget.SUBMISSION,
                (store, log) -> tuning.replay(store, log, job, 0, Map.of(), Map.of())),
        () -> replays++);
  }

  /**
   * Replays {@code jobs} in turn, {@value #ROUND} per round, until a round's slowest replay took
   * less than {@code fastNanos} after at least {@value #MIN_REPLAYS} replays (warm), or until
   * {@code deadline} on {@code clock}. A replay that throws {@link StoreGateway.Unavailable} counts
   * as a failure (and at its duration). No jobs: warm at once.
   */
  static Result rounds(
      List<String> jobs,
      long deadline,
      long fastNanos,
      LongSupplier clock,
      Consumer<String> replay,
      Runnable replayed) {
    int replays = 0;
    int failures = 0;
    while (!jobs.isEmpty()
        && clock.getAsLong() < deadline
        && !Thread.currentThread().isInterrupted()) {
      long slowest = 0;
      for (int i = 0; i < ROUND && clock.getAsLong() < deadline; i++) {
        String job = jobs.get(replays % jobs.size());
        long s = clock.getAsLong();
        try {
          replay.accept(job);
        } catch (StoreGateway.Unavailable e) {
          failures++;
        }
        slowest = Math.max(slowest, clock.getAsLong() - s);
        replays++;
        replayed.run();
      }
      if (replays >= MIN_REPLAYS && slowest < fastNanos) {
        return new Result(jobs.size(), replays, failures, true);
      }
    }
    return new Result(jobs.size(), replays, failures, jobs.isEmpty());
  }

  /** The distinct job keys of the runs, in their order. */
  static List<String> recentJobs(List<AppRun> runs) {
    Set<String> keys = new LinkedHashSet<>();
    for (AppRun r : runs) {
      if (r.jobKey() != null) {
        keys.add(r.jobKey());
      }
    }
    return new ArrayList<>(keys);
  }

  @Override
  public void destroy() {
    worker.interrupt();
  }
}
