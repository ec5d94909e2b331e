package io.sluice.tuner.store;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Writes that callers wait for, gathered into group commits: each caller queues its item and waits;
 * one committer thread takes whatever has queued (at most {@code maxGroup} items) and hands the
 * group to the {@link Writer} as one unit of work, which answers every item only once the group is
 * durable. While a group is being written the next one gathers, so groups grow with the load and a
 * lone item is written at once (no waiting for company).
 *
 * <p>A caller waits at most its timeout, counted from when it queued; past it the item is {@link
 * Item#abandoned() abandoned}: a writer skips it if its group has not started, and the caller gets
 * {@link StoreGateway.Unavailable} {@code timeout}. A full queue answers {@code busy} at once. A
 * writer that throws fails every item of the group it had not answered: none of them is
 * acknowledged.
 *
 * @param <T> what is written
 * @param <R> what a caller is answered
 */
public final class GroupCommit<T, R> implements AutoCloseable {

  /** Writes one group; runs on the committer thread. */
  @FunctionalInterface
  public interface Writer<T, R> {
    /**
     * Writes the group and answers each item ({@link Item#done} or {@link Item#failed}); throwing
     * fails the items not answered yet.
     */
    void write(List<Item<T, R>> group);
  }

  /** One queued item and its caller's answer. */
  public static final class Item<T, R> {
    private final T value;
    private final CompletableFuture<R> answer = new CompletableFuture<>();
    private final AtomicBoolean abandoned = new AtomicBoolean();

    Item(T value) {
      this.value = value;
    }

    public T value() {
      return value;
    }

    /** True once the caller stopped waiting (skip the item if its write has not started). */
    public boolean abandoned() {
      return abandoned.get();
    }

    /** Acknowledges the item: call only once it is durable. */
    public void done(R result) {
      answer.complete(result);
    }

    public void failed(RuntimeException e) {
      answer.completeExceptionally(e);
    }

    boolean answered() {
      return answer.isDone();
    }
  }

  private final String name;
  private final Writer<T, R> writer;
  private final int maxGroup;
  private final BlockingQueue<Item<T, R>> queue;
  private final Thread committer;
  private volatile boolean closed;

  /**
   * @param name the committer thread's name and the subject of error messages
   * @param maxGroup at most this many items per group
   * @param queueSize items that may wait for their group; more are answered {@code busy}
   */
  public GroupCommit(String name, Writer<T, R> writer, int maxGroup, int queueSize) {
    if (maxGroup < 1 || queueSize < 1) {
      throw new IllegalArgumentException(
          name + ": max group " + maxGroup + " and queue " + queueSize + " must be >= 1");
    }
    this.name = name;
    this.writer = writer;
    this.maxGroup = maxGroup;
    this.queue = new ArrayBlockingQueue<>(queueSize);
    this.committer = new Thread(this::run, name);
    committer.setDaemon(true);
    committer.start();
  }

  /**
   * Queues the item and waits until its group is durable; answers what the writer answered, or
   * throws what it failed with.
   *
   * @throws StoreGateway.Unavailable busy (queue full), timeout (not answered within {@code
   *     timeout}) or error (closed)
   */
  public R submit(T value, Duration timeout) {
    Item<T, R> item = new Item<>(value);
    if (closed || !queue.offer(item)) {
      throw new StoreGateway.Unavailable(
          closed ? "error" : "busy",
          closed ? name + " is closed" : name + ": " + queue.size() + " writes already wait",
          null);
    }
    try {
      return item.answer.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      item.abandoned.set(true);
      // worded as the gateway's own time limit: the caller cannot tell (nor needs to) whether its
      // group waited for the store or for the group before it
      throw new StoreGateway.Unavailable(
          "timeout", "no answer from the store within " + timeout.toMillis() + " ms", e);
    } catch (InterruptedException e) {
      item.abandoned.set(true);
      Thread.currentThread().interrupt();
      throw new StoreGateway.Unavailable("error", name + ": interrupted while waiting", e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      throw new IllegalStateException(e.getCause());
    }
  }

  /** Items waiting for their group. */
  public int waiting() {
    return queue.size();
  }

  private void run() {
    List<Item<T, R>> group = new ArrayList<>(maxGroup);
    while (!closed) {
      try {
        group.add(queue.take());
      } catch (InterruptedException e) {
        break;
      }
      queue.drainTo(group, maxGroup - 1);
      try {
        writer.write(List.copyOf(group));
      } catch (RuntimeException e) {
        for (Item<T, R> item : group) {
          item.failed(e);
        }
      }
      for (Item<T, R> item : group) {
        if (!item.answered()) {
          item.failed(new IllegalStateException(name + ": the writer did not answer an item"));
        }
      }
      group.clear();
    }
    List<Item<T, R>> left = new ArrayList<>();
    queue.drainTo(left);
    for (Item<T, R> item : left) {
      item.failed(new StoreGateway.Unavailable("error", name + " is closed", null));
    }
  }

  /** Stops taking items; those still queued fail. */
  @Override
  public void close() {
    closed = true;
    committer.interrupt();
    try {
      committer.join(TimeUnit.SECONDS.toMillis(5));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
