package io.sluice.throttle.gate;

import java.util.ArrayDeque;
import java.util.function.Predicate;

/**
 * Where chunk pacing keeps the chunk fetches of paced apps, and the rule for when they go. Pure
 * bookkeeping on a clock the caller passes in (nanoseconds); not thread-safe: the caller serialises
 * every call (the ESS adapter under one lock, the fleet simulation on its single thread).
 *
 * <p>The node has server threads ({@link Loop}: a Netty event loop) and connections pinned to them
 * ({@link Channel}). A paced chunk may go only while its thread ({@link PaceScope#THREAD}) or no
 * thread of the node ({@link PaceScope#NODE}: the threads share one disk, a paced read on one
 * thread delays an unpaced read on another) has chunks of unpaced apps queued or being read, and
 * then at most {@code nodeMax} paced chunks are out on the node, or with {@code nodeMax} 0 at most
 * one per thread (spread over the threads, so the paced app keeps every thread busy when nobody
 * else needs the node). Parked chunks go one at a time in turns between the connections of a thread
 * (round robin, oldest parked first within a connection, so a stream's chunks keep their order),
 * never all of one connection before the next.
 *
 * <p><b>A bound per connection.</b> A connection whose chunks stay parked gets a turn whatever the
 * others do and whatever is in flight once {@code parkMaxNanos} has passed since it last had one
 * (or since its first chunk parked): one chunk goes, and its clock starts again. So parking never
 * leaves a connection without a byte for longer than that (plus the time its chunk takes to read),
 * far inside the client's idle timeout, and without flooding its thread with a whole request's
 * chunks at once.
 *
 * <p><b>Anticipation.</b> An unpaced app's chunk fetches reach the server one after another: the
 * next one is read off the connection only once the previous one was sent, so between two of its
 * chunks the scope is briefly free of unpaced work. A paced chunk let out in that gap takes the
 * disk first and the unpaced app's next read waits a whole paced read behind it, every chunk. With
 * {@code anticipateNanos} &gt; 0 the scope stays closed to paced chunks for that long after its
 * last unpaced chunk was done (a disk scheduler's idle slice: keep the device for the app that is
 * reading for its next read); the paced chunks go once it has passed with no unpaced chunk back.
 * This needs the clock: only the forms of {@link #unpaced(Loop, int, long)} and {@link
 * #tryGo(Channel, long)} that take it anticipate; the ones without a clock never do.
 *
 * @param <T> what the caller parks (a chunk fetch message, or a simulated request's chunks)
 */
public final class ChunkParking<T> {
  private final int nodeMax;
  private final long parkMaxNanos;

  /** pace.anticipateMs in nanoseconds: how long a scope stays closed after its unpaced work. */
  private final long anticipateNanos;

  /** When the node's unpaced work was last done (NODE scope); {@link #NEVER} before. */
  private long idleSince = NEVER;

  /** No unpaced work has been done yet (or it was counted without a clock). */
  private static final long NEVER = Long.MIN_VALUE;

  /** pace.scope THREAD: only unpaced chunks on the paced chunk's own thread make it wait. */
  private final boolean perThread;

  private final ArrayDeque<Loop> loops = new ArrayDeque<>();

  /**
   * Turn deadlines: (channel, stamp) in stamp order; an entry whose stamp is not its channel's is
   * stale.
   */
  private final ArrayDeque<Due> due = new ArrayDeque<>();

  private int pacedOut;
  private int unpaced;
  private int parked;

  /**
   * @param nodeMax {@code pace.inFlight}: 0 for one paced chunk per thread, else the node-wide
   *     number
   * @param parkMaxNanos {@code pace.parkMaxMs} in nanoseconds: the longest a connection waits for
   *     its next turn
   */
  public ChunkParking(int nodeMax, long parkMaxNanos) {
    this(nodeMax, parkMaxNanos, PaceScope.NODE);
  }

  /**
   * @param nodeMax {@code pace.inFlight}: 0 for one paced chunk per thread, else the node-wide
   *     number
   * @param parkMaxNanos {@code pace.parkMaxMs} in nanoseconds: the longest a connection waits for
   *     its next turn
   * @param scope {@code pace.scope}: whether a paced chunk waits for unpaced chunks on its own
   *     thread only, or on any thread of the node
   */
  public ChunkParking(int nodeMax, long parkMaxNanos, PaceScope scope) {
    this(nodeMax, parkMaxNanos, scope, 0);
  }

  /**
   * @param nodeMax {@code pace.inFlight}: 0 for one paced chunk per thread, else the node-wide
   *     number
   * @param parkMaxNanos {@code pace.parkMaxMs} in nanoseconds: the longest a connection waits for
   *     its next turn
   * @param scope {@code pace.scope}: whether a paced chunk waits for unpaced chunks on its own
   *     thread only, or on any thread of the node
   * @param anticipateNanos {@code pace.anticipateMs} in nanoseconds: how long the scope stays
   *     closed to paced chunks after its unpaced work was done (0: not at all)
   */
  public ChunkParking(int nodeMax, long parkMaxNanos, PaceScope scope, long anticipateNanos) {
    if (nodeMax < 0 || parkMaxNanos <= 0 || anticipateNanos < 0) {
      throw new IllegalArgumentException(
          "nodeMax must be >= 0, parkMaxNanos > 0 and anticipateNanos >= 0, got "
              + nodeMax
              + ", "
              + parkMaxNanos
              + ", "
              + anticipateNanos);
    }
    this.nodeMax = nodeMax;
    this.parkMaxNanos = parkMaxNanos;
    this.perThread = scope == PaceScope.THREAD;
    this.anticipateNanos = anticipateNanos;
  }

  /**
   * The parking {@code cfg}'s pace.inFlight, pace.parkMaxMs, pace.scope and pace.anticipateMs
   * describe.
   */
  public static <T> ChunkParking<T> of(GateConfig cfg) {
    return new ChunkParking<>(
        Math.toIntExact(cfg.get(GateConfig.PACE_IN_FLIGHT)),
        cfg.nanos(GateConfig.PACE_PARK_MAX_MS),
        cfg.get(GateConfig.PACE_SCOPE),
        cfg.nanos(GateConfig.PACE_ANTICIPATE_MS));
  }

  /** A server thread, and the paced and unpaced chunks on it. */
  public static final class Loop {
    private final ArrayDeque<Channel<?>> ring = new ArrayDeque<>();
    private int pacedOut;
    private int unpaced;

    /** When this thread's unpaced work was last done (THREAD scope); {@link #NEVER} before. */
    private long idleSince = NEVER;

    /** Paced chunks let out on this thread and not yet done. */
    public int pacedOut() {
      return pacedOut;
    }

    /** Unpaced chunks queued or being read on this thread. */
    public int unpaced() {
      return unpaced;
    }
  }

  /** A connection pinned to a {@link Loop}, and its parked chunks in order. */
  public static final class Channel<T> {
    private final Loop loop;
    private final ArrayDeque<Entry<T>> parked = new ArrayDeque<>();

    /** When its wait for a turn started (first chunk parked, or its last turn). */
    private long since;

    private Channel(Loop loop) {
      this.loop = loop;
    }

    /** Chunks of this connection parked right now. */
    public int parked() {
      int n = 0;
      for (Entry<T> e : parked) {
        n += e.left;
      }
      return n;
    }
  }

  private static final class Entry<T> {
    final T item;
    int left;

    Entry(T item, int left) {
      this.item = item;
      this.left = left;
    }
  }

  private record Due(Channel<?> channel, long since) {}

  /** A new server thread. */
  public Loop loop() {
    Loop l = new Loop();
    loops.add(l);
    return l;
  }

  /** A new connection pinned to {@code loop}. */
  public Channel<T> channel(Loop loop) {
    return new Channel<>(loop);
  }

  /**
   * {@code n} unpaced chunks were queued on {@code loop} (negative: that many were read, or
   * dropped).
   */
  public void unpaced(Loop loop, int n) {
    loop.unpaced += n;
    unpaced += n;
  }

  /**
   * {@code n} unpaced chunks were queued on {@code loop} at {@code now} (negative: that many were
   * read, or dropped); when that leaves the scope without unpaced work, its anticipation starts.
   */
  public void unpaced(Loop loop, int n, long now) {
    unpaced(loop, n);
    if (n < 0) {
      if (loop.unpaced <= 0) {
        loop.idleSince = now;
      }
      if (unpaced <= 0) {
        idleSince = now;
      }
    }
  }

  /**
   * How long {@code loop}'s scope (its thread, or the node with pace.scope NODE) has been without
   * unpaced work at {@code now}: 0 while it has some, {@link Long#MAX_VALUE} if it never had any
   * counted with a clock. What a newly queued unpaced chunk finds is the gap anticipation has to
   * bridge.
   */
  public long idleFor(Loop loop, long now) {
    if (unpacedIn(loop) > 0) {
      return 0;
    }
    long since = idleSinceIn(loop);
    return since == NEVER ? Long.MAX_VALUE : now - since;
  }

  /**
   * A paced chunk on {@code c} arrived: true if it may go now (counted as out: report {@link #done}
   * when it was sent), false if it must be parked ({@link #park}). It goes now only when nothing
   * that could take its place is parked (nothing on its thread; with a node-wide cap, nothing on
   * the node), so turns stay fair, and there is room.
   */
  public boolean tryGo(Channel<T> c) {
    return tryGo(c, NEVER);
  }

  /**
   * {@link #tryGo(Channel)} at {@code now}: nor while its scope anticipates unpaced work (within
   * pace.anticipateMs of the last unpaced chunk done there).
   */
  public boolean tryGo(Channel<T> c, long now) {
    if ((nodeMax == 0 ? c.loop.ring.isEmpty() : parked == 0) && room(c.loop, now)) {
      out(c.loop);
      return true;
    }
    return false;
  }

  /**
   * Parks {@code chunks} chunks of {@code item} on {@code c} at {@code now}, behind what it has
   * parked already.
   */
  public void park(Channel<T> c, T item, int chunks, long now) {
    if (chunks <= 0) {
      return;
    }
    if (c.parked.isEmpty()) {
      c.since = now;
      c.loop.ring.addLast(c);
      due.addLast(new Due(c, now));
    }
    c.parked.addLast(new Entry<>(item, chunks));
    parked += chunks;
  }

  /** A paced chunk let out on {@code loop} was sent (or failed). */
  public void done(Loop loop) {
    if (loop.pacedOut > 0) {
      loop.pacedOut--;
      pacedOut--;
    }
  }

  /**
   * Lets out what may go at {@code now}: first one chunk of every connection whose turn is due,
   * then chunks in turns while threads have room. {@code go} is called once per chunk let out (the
   * chunk's item); it returns false when the item's connection is gone (nothing is counted and that
   * item's chunks are dropped), true when the chunk went (counted as out until {@link #done}).
   */
  public void pump(long now, Predicate<T> go) {
    while (!due.isEmpty()) {
      Due d = due.peekFirst();
      if (d.channel.parked.isEmpty() || d.channel.since != d.since) {
        due.pollFirst(); // stale: the connection had a turn since, or has nothing parked
        continue;
      }
      if (now - d.since < parkMaxNanos) {
        break;
      }
      due.pollFirst();
      @SuppressWarnings("unchecked")
      Channel<T> c = (Channel<T>) d.channel;
      turn(c, now, go);
    }
    if (loops.size() > 1) {
      loops.addLast(
          loops.pollFirst()); // the thread served first rotates: turns between threads under a node
      // cap
    }
    for (Loop l : loops) {
      while (!l.ring.isEmpty() && room(l, now)) {
        @SuppressWarnings("unchecked")
        Channel<T> c = (Channel<T>) l.ring.pollFirst();
        l.ring.addLast(c);
        turn(c, now, go);
      }
    }
  }

  /**
   * When {@link #pump} next has something to let out that it may not at {@code now}: the next
   * connection's turn, or the end of an anticipation that keeps parked chunks waiting; {@link
   * Long#MAX_VALUE} with nothing parked.
   */
  public long nextDue(long now) {
    long next = nextDue();
    if (next == Long.MAX_VALUE || anticipateNanos == 0) {
      return next;
    }
    for (Loop l : loops) {
      if (!l.ring.isEmpty() && unpacedIn(l) <= 0 && anticipating(l, now)) {
        next = Math.min(next, idleSinceIn(l) + anticipateNanos);
      }
    }
    return next;
  }

  /** When the next connection's turn falls due, or {@link Long#MAX_VALUE} with nothing parked. */
  public long nextDue() {
    while (!due.isEmpty()) {
      Due d = due.peekFirst();
      if (d.channel.parked.isEmpty() || d.channel.since != d.since) {
        due.pollFirst();
        continue;
      }
      return d.since + parkMaxNanos;
    }
    return Long.MAX_VALUE;
  }

  /** Whether a paced chunk is out in {@code loop}'s scope (an unpaced read may wait behind it). */
  public boolean pacedAhead(Loop loop) {
    return perThread ? loop.pacedOut > 0 : pacedOut > 0;
  }

  /** Chunks parked on the node. */
  public int parked() {
    return parked;
  }

  /** Paced chunks out on the node. */
  public int pacedOut() {
    return pacedOut;
  }

  /** Unpaced chunks queued or being read on the node. */
  public int unpaced() {
    return unpaced;
  }

  /** One chunk of {@code c} goes (or its dead items are dropped until one goes or none is left). */
  private void turn(Channel<T> c, long now, Predicate<T> go) {
    while (!c.parked.isEmpty()) {
      Entry<T> e = c.parked.peekFirst();
      if (!go.test(e.item)) {
        c.parked.pollFirst();
        parked -= e.left;
        continue;
      }
      out(c.loop);
      parked--;
      if (--e.left == 0) {
        c.parked.pollFirst();
      }
      break;
    }
    if (c.parked.isEmpty()) {
      c.loop.ring.removeLastOccurrence(c); // last after a turn in the ring's order
    } else {
      c.since = now;
      due.addLast(new Due(c, now));
    }
  }

  private boolean room(Loop l, long now) {
    return unpacedIn(l) <= 0
        && !anticipating(l, now)
        && (nodeMax == 0 ? l.pacedOut < 1 : pacedOut < nodeMax);
  }

  /**
   * Whether {@code l}'s scope is within pace.anticipateMs of its last unpaced chunk at {@code now}.
   */
  private boolean anticipating(Loop l, long now) {
    long since = idleSinceIn(l);
    return anticipateNanos > 0 && since != NEVER && now != NEVER && now - since < anticipateNanos;
  }

  /** Unpaced chunks in {@code l}'s scope: its thread's (pace.scope THREAD) or the node's. */
  private int unpacedIn(Loop l) {
    return perThread ? l.unpaced : unpaced;
  }

  /** When {@code l}'s scope was last left without unpaced work ({@link #NEVER} before). */
  private long idleSinceIn(Loop l) {
    return perThread ? l.idleSince : idleSince;
  }

  private void out(Loop l) {
    l.pacedOut++;
    pacedOut++;
  }
}
