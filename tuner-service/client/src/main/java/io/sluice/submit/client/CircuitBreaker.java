package io.sluice.submit.client;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Properties;
import java.util.function.LongSupplier;
import java.util.function.UnaryOperator;

/**
 * A circuit breaker whose state outlives the process: {@code sluice-submit} is one short JVM per
 * submission, so an in-memory breaker (resilience4j's) would never see a second call. After {@code
 * failureThreshold} consecutive failures the breaker opens for {@code openFor}; then one caller may
 * probe (half-open) and its outcome closes or re-opens the breaker. While a probe is in flight (at
 * most {@code probeFor}) other callers are refused.
 *
 * <p>State transitions are read-modify-write operations on a {@link Store}; the file store holds an
 * OS file lock during each, so concurrent submissions on one gateway share one breaker. A store
 * that cannot be read or written never blocks a request: the breaker then behaves as closed for
 * that call.
 */
public final class CircuitBreaker {
  /** Breaker phases. */
  public enum Phase {
    CLOSED,
    OPEN,
    HALF_OPEN
  }

  /** Persisted state. Times are epoch milliseconds of the injected clock. */
  public record State(Phase phase, int failures, long openUntilMs, long probeUntilMs) {
    public static final State INITIAL = new State(Phase.CLOSED, 0, 0, 0);
  }

  /** Settings; validated eagerly. */
  public record Settings(int failureThreshold, Duration openFor, Duration probeFor) {
    public static final int DEFAULT_FAILURE_THRESHOLD = 3;
    public static final Duration DEFAULT_OPEN_FOR = Duration.ofSeconds(60);

    public Settings {
      if (failureThreshold < 1) {
        throw new IllegalArgumentException(
            "failureThreshold must be >= 1, was " + failureThreshold);
      }
      if (openFor == null || openFor.isNegative() || openFor.isZero()) {
        throw new IllegalArgumentException("openFor must be > 0, was " + openFor);
      }
      if (probeFor == null || probeFor.isNegative() || probeFor.isZero()) {
        throw new IllegalArgumentException("probeFor must be > 0, was " + probeFor);
      }
    }
  }

  /**
   * Where the state lives. {@code update} must apply the function atomically with respect to other
   * updaters.
   */
  public interface Store {
    State update(UnaryOperator<State> f) throws IOException;
  }

  /** The answer to "may I call the service now?". */
  public record Permission(boolean allowed, String reason) {}

  private final String name;
  private final Settings settings;
  private final Store store;
  private final LongSupplier clock;

  public CircuitBreaker(String name, Settings settings, Store store, LongSupplier clockMillis) {
    this.name = name;
    this.settings = settings;
    this.store = store;
    this.clock = clockMillis;
  }

  /** Asks for a call; a refused call must not be made (and is not reported back). */
  public Permission tryAcquire() {
    long now = clock.getAsLong();
    boolean[] allowed = {true};
    String[] why = {""};
    try {
      store.update(
          s -> {
            switch (s.phase()) {
              case CLOSED:
                return s;
              case OPEN:
                if (now < s.openUntilMs()) {
                  allowed[0] = false;
                  why[0] =
                      "breaker " + name + " is OPEN for " + (s.openUntilMs() - now) + " ms more";
                  return s;
                }
                why[0] = "breaker " + name + " is HALF_OPEN: probing";
                return new State(
                    Phase.HALF_OPEN,
                    s.failures(),
                    s.openUntilMs(),
                    now + settings.probeFor().toMillis());
              case HALF_OPEN:
              default:
                if (now < s.probeUntilMs()) {
                  allowed[0] = false;
                  why[0] = "breaker " + name + " is HALF_OPEN and another probe is in flight";
                  return s;
                }
                why[0] = "breaker " + name + " is HALF_OPEN: probing again";
                return new State(
                    Phase.HALF_OPEN,
                    s.failures(),
                    s.openUntilMs(),
                    now + settings.probeFor().toMillis());
            }
          });
    } catch (IOException | RuntimeException e) {
      return new Permission(true, "breaker " + name + " state unavailable (" + e + "); calling");
    }
    return new Permission(allowed[0], why[0]);
  }

  public void onSuccess() {
    try {
      store.update(s -> State.INITIAL);
    } catch (IOException | RuntimeException ignored) {
      // a breaker that cannot persist simply forgets; it never fails the caller
    }
  }

  public void onFailure() {
    long now = clock.getAsLong();
    try {
      store.update(
          s -> {
            switch (s.phase()) {
              case CLOSED:
                {
                  int failures = s.failures() + 1;
                  return failures >= settings.failureThreshold()
                      ? new State(Phase.OPEN, failures, now + settings.openFor().toMillis(), 0)
                      : new State(Phase.CLOSED, failures, 0, 0);
                }
              case HALF_OPEN:
                return new State(
                    Phase.OPEN, s.failures() + 1, now + settings.openFor().toMillis(), 0);
              case OPEN:
              default:
                return s;
            }
          });
    } catch (IOException | RuntimeException ignored) {
      // see onSuccess
    }
  }

  /** The current state (for logs and tests); INITIAL if unreadable. */
  public State state() {
    try {
      return store.update(s -> s);
    } catch (IOException | RuntimeException e) {
      return State.INITIAL;
    }
  }

  /** In-memory store (one process, e.g. a Kyuubi server or a test). */
  public static final class MemoryStore implements Store {
    private State state = State.INITIAL;

    @Override
    public synchronized State update(UnaryOperator<State> f) {
      state = f.apply(state);
      return state;
    }
  }

  /**
   * A small properties file, locked (OS file lock, bounded wait) for each read-modify-write.
   * Unparseable content is treated as the initial state and overwritten.
   */
  public static final class FileStore implements Store {
    private static final long LOCK_WAIT_MS = 200;
    private final Path file;

    public FileStore(Path file) {
      this.file = file;
    }

    public Path file() {
      return file;
    }

    @Override
    public State update(UnaryOperator<State> f) throws IOException {
      Files.createDirectories(file.toAbsolutePath().getParent());
      try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw");
          FileChannel ch = raf.getChannel();
          FileLock lock = lockWithin(ch)) {
        byte[] bytes = new byte[(int) Math.min(ch.size(), 4096)];
        raf.readFully(bytes);
        State before = parse(new String(bytes, StandardCharsets.UTF_8));
        State after = f.apply(before);
        if (!after.equals(before)) {
          byte[] out = format(after).getBytes(StandardCharsets.UTF_8);
          raf.seek(0);
          raf.write(out);
          raf.setLength(out.length);
        }
        return after;
      }
    }

    private static FileLock lockWithin(FileChannel ch) throws IOException {
      long deadline = System.nanoTime() + LOCK_WAIT_MS * 1_000_000;
      while (true) {
        FileLock lock = ch.tryLock();
        if (lock != null) {
          return lock;
        }
        if (System.nanoTime() > deadline) {
          throw new IOException(
              "breaker state file is locked by another process for > " + LOCK_WAIT_MS + " ms");
        }
        try {
          Thread.sleep(5);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IOException("interrupted while locking the breaker state");
        }
      }
    }

    static State parse(String text) {
      if (text.isBlank()) {
        return State.INITIAL;
      }
      try {
        Properties p = new Properties();
        p.load(new java.io.StringReader(text));
        return new State(
            Phase.valueOf(p.getProperty("phase")),
            Integer.parseInt(p.getProperty("failures")),
            Long.parseLong(p.getProperty("openUntilMs")),
            Long.parseLong(p.getProperty("probeUntilMs")));
      } catch (IOException | RuntimeException e) {
        return State.INITIAL;
      }
    }

    static String format(State s) {
      return "phase="
          + s.phase()
          + "\nfailures="
          + s.failures()
          + "\nopenUntilMs="
          + s.openUntilMs()
          + "\nprobeUntilMs="
          + s.probeUntilMs()
          + "\n";
    }
  }
}
