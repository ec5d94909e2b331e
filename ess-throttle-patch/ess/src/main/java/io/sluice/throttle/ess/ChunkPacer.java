package io.sluice.throttle.ess;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Timer;
import io.netty.channel.ChannelHandlerContext;
import io.netty.util.Attribute;
import io.netty.util.AttributeKey;
import io.netty.util.concurrent.EventExecutor;
import io.sluice.throttle.gate.ChunkParking;
import io.sluice.throttle.gate.GateConfig;
import io.sluice.throttle.gate.ThrottleGate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.LongStream;

/**
 * Chunk pacing for one node: gives the disk to the apps the gate does not pace. The gate decides
 * per request when work starts; a heavy app's admitted requests still put their chunk reads in the
 * disk's queue one after another, and every read of a light neighbour waits behind them. Here each
 * chunk fetch of a paced app ({@link ThrottleGate#paced}) goes through the gate core's {@link
 * ChunkParking}, keyed by the channel's event loop and the channel: it is parked (without holding a
 * server thread) while its event loop has chunks of unpaced apps queued or being sent or already
 * has a paced one out ({@code pace.inFlight} 0), or, with {@code pace.inFlight} N, while any event
 * loop has unpaced chunks or N paced ones are out on the node. Parked chunks go in turns between
 * the channels of an event loop; a channel parked for {@code pace.parkMaxMs} since its last turn
 * gets one chunk out whatever the others do, so parking never leaves a connection quiet for long
 * (far inside the client's idle timeout). Parked chunks go on, in order, on their own channel's
 * event loop.
 *
 * <p>Counting: {@link #onChunk} counts a passed-on chunk on its stream's {@link
 * TimedStreamManager.Tracked} (paced or not); {@link #chunkDone} takes one off when Spark reports
 * it sent, {@link #streamGone} the rest when the stream failed or its connection closed. One lock
 * guards the books; everything is O(1) per chunk but the turn order. Meters: {@code
 * sluice.throttle.chunks.parked} (chunk fetches parked), {@code
 * sluice.throttle.chunks.behind.paced} (unpaced chunk fetches that arrived while a paced chunk was
 * out in their scope: what pacing did not spare them) and {@code sluice.throttle.pace.unpaced.gap}
 * (how long the scope had been free of unpaced chunks when the next one arrived).
 *
 * <p>Anticipation ({@code pace.anticipateMs}): once the last unpaced chunk of a scope was sent, the
 * parked chunks wait that much longer for the unpaced app's next chunk (Spark's client sends a
 * request's chunk fetches at once, but the server reads the next one off the connection only after
 * the previous was sent); a timer lets them go when it has passed with none.
 */
final class ChunkPacer {
  private static final AttributeKey<ChunkParking.Channel<Parked>> PARKING =
      AttributeKey.valueOf("sluice.throttle.chunkParking");

  private static final Duration[] GAP_BUCKETS =
      LongStream.of(1, 2, 5, 10, 20, 50, 100, 200, 500, 1000)
          .mapToObj(Duration::ofMillis)
          .toArray(Duration[]::new);

  private final ThrottleGate gate;

  /** The books (guarded by this). */
  private final ChunkParking<Parked> parking;

  /** One per event loop (guarded by this). */
  private final Map<EventExecutor, ChunkParking.Loop> loops = new HashMap<>();

  /**
   * Where the wake-up for the next due turn runs (the event loop of the last chunk parked; guarded
   * by this).
   */
  private EventExecutor timerLoop;

  /** When the armed wake-up fires ({@link Long#MAX_VALUE}: none armed; guarded by this). */
  private long timerAt = Long.MAX_VALUE;

  private final Counter parkedTotal;
  private final Counter behindPaced;
  private final Timer unpacedGap;

  ChunkPacer(ThrottleGate gate) {
    this.gate = gate;
    this.parkedTotal =
        Counter.builder("sluice.throttle.chunks.parked")
            .description(
                "Chunk fetches of paced apps parked while unpaced apps' chunks were being served")
            .register(gate.meters().registry());
    this.behindPaced =
        Counter.builder("sluice.throttle.chunks.behind.paced")
            .description(
                "Chunk fetches of unpaced apps that arrived while a paced chunk was out in their pace"
                    + " scope (they can wait for its read)")
            .register(gate.meters().registry());
    this.unpacedGap =
        Timer.builder("sluice.throttle.pace.unpaced.gap")
            .description(
                "While chunks are paced: how long a pace scope had been without unpaced chunks when"
                    + " the next one arrived (what pace.anticipateMs has to bridge)")
            .serviceLevelObjectives(GAP_BUCKETS)
            .register(gate.meters().registry());
    this.parking = ChunkParking.of(gate.config());
  }

  /** Whether chunk pacing is on for {@code gate} (ENFORCE and pace.lingerMs &gt; 0). */
  static boolean enabled(ThrottleGate gate) {
    return gate.config().get(GateConfig.PACE_LINGER_MS) > 0
        && gate.config().mode() == io.sluice.throttle.gate.GateMode.ENFORCE;
  }

  /**
   * A chunk fetch {@code msg} of stream {@code t} arrived on {@code ctx}. True: pass it on now
   * (counted); false: it was parked and will be fired on {@code ctx} later.
   */
  boolean onChunk(ChannelHandlerContext ctx, Object msg, TimedStreamManager.Tracked t) {
    // Spark serves a stream's chunks only in order: behind a parked chunk of its stream a chunk
    // parks too
    boolean paced = t.parkedNow.get() > 0 || gate.paced(t.appId);
    long now = System.nanoTime();
    synchronized (this) {
      ChunkParking.Loop loop = loop(t);
      if (!paced) {
        if (parking.parked() + parking.pacedOut() > 0) {
          long gap = parking.idleFor(loop, now);
          if (gap > 0 && gap != Long.MAX_VALUE) {
            unpacedGap.record(gap, TimeUnit.NANOSECONDS);
          }
          if (parking.pacedAhead(loop)) {
            behindPaced.increment();
          }
        }
        parking.unpaced(loop, 1, now);
        t.unpacedOut.incrementAndGet();
        return true;
      }
      ChunkParking.Channel<Parked> channel = channel(ctx, loop);
      if (parking.tryGo(channel, now)) {
        t.pacedOut.incrementAndGet();
        return true;
      }
      t.parkedNow.incrementAndGet();
      parking.park(channel, new Parked(ctx, msg, t), 1, now);
      timerLoop = ctx.executor();
    }
    parkedTotal.increment();
    t.ticket.chunkParked();
    pump();
    return false;
  }

  /** One chunk of {@code t} was sent (or its write failed). */
  void chunkDone(TimedStreamManager.Tracked t) {
    if (takeOne(t.pacedOut)) {
      synchronized (this) {
        parking.done(loop(t));
      }
      pump();
    } else if (takeOne(t.unpacedOut)) {
      boolean drained;
      synchronized (this) {
        ChunkParking.Loop loop = loop(t);
        parking.unpaced(loop, -1, System.nanoTime());
        drained = loop.unpaced() == 0 || parking.unpaced() == 0;
      }
      if (drained) {
        pump();
      }
    }
  }

  /**
   * Stream {@code t} ended (failed, or its connection closed): what it had out is no longer out.
   */
  void streamGone(TimedStreamManager.Tracked t) {
    int p = t.pacedOut.getAndSet(0);
    int u = t.unpacedOut.getAndSet(0);
    if (p + u > 0) {
      synchronized (this) {
        ChunkParking.Loop loop = loop(t);
        for (int i = 0; i < p; i++) {
          parking.done(loop);
        }
        parking.unpaced(loop, -u, System.nanoTime());
      }
      pump();
    }
  }

  /**
   * Chunks passed on and not yet reported sent, paced and not (0 once the node is quiet: nothing
   * leaks).
   */
  synchronized int outstanding() {
    return parking.pacedOut() + parking.unpaced();
  }

  /** Chunk fetches parked so far. */
  long parkedTotal() {
    return (long) parkedTotal.count();
  }

  /** Chunks parked right now. */
  synchronized int parkedChunks() {
    return parking.parked();
  }

  /** Sends on what may go now; arms a timer for the next connection's turn. */
  void pump() {
    List<Parked> refused = new ArrayList<>(0);
    synchronized (this) {
      long now = System.nanoTime();
      parking.pump(
          now,
          p -> {
            if (!p.ctx.channel().isActive()) {
              p.t.parkedNow.decrementAndGet();
              return false; // its connection closed: the stream manager finishes its ticket
            }
            p.t.pacedOut.incrementAndGet();
            // handed to the channel's event loop under the lock: a stream's chunks reach it in the
            // order they were
            // parked (Spark serves a stream's chunks only in order)
            try {
              p.ctx
                  .executor()
                  .execute(
                      () -> {
                        p.t.parkedNow
                            .decrementAndGet(); // on the channel's event loop: no later chunk is
                        // read in between
                        p.ctx.fireChannelRead(p.msg);
                      });
            } catch (RejectedExecutionException e) {
              p.t.parkedNow.decrementAndGet();
              refused.add(p); // shutting down
            }
            return true;
          });
      // the next turn, or the end of an anticipation: armed unless a wake-up comes before it
      long due = parking.nextDue(now);
      if (due < timerAt && timerLoop != null) {
        timerAt = due;
        try {
          timerLoop.schedule(() -> timer(due), Math.max(0, due - now), TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException e) {
          timerAt = Long.MAX_VALUE; // shutting down
        }
      }
    }
    for (Parked p : refused) {
      chunkDone(p.t);
    }
  }

  private void timer(long due) {
    synchronized (this) {
      if (timerAt == due) {
        timerAt = Long.MAX_VALUE;
      }
    }
    pump();
  }

  private ChunkParking.Loop loop(TimedStreamManager.Tracked t) {
    return loops.computeIfAbsent(t.channel.eventLoop(), e -> parking.loop());
  }

  private ChunkParking.Channel<Parked> channel(ChannelHandlerContext ctx, ChunkParking.Loop loop) {
    Attribute<ChunkParking.Channel<Parked>> a = ctx.channel().attr(PARKING);
    ChunkParking.Channel<Parked> c = a.get();
    if (c == null) {
      c = parking.channel(loop);
      a.set(c);
    }
    return c;
  }

  private static boolean takeOne(AtomicInteger n) {
    while (true) {
      int v = n.get();
      if (v <= 0) {
        return false;
      }
      if (n.compareAndSet(v, v - 1)) {
        return true;
      }
    }
  }

  private record Parked(ChannelHandlerContext ctx, Object msg, TimedStreamManager.Tracked t) {}
}
