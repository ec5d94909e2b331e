package io.sluice.throttle.ess;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntSupplier;

import io.micrometer.core.instrument.Counter;
import io.netty.channel.ChannelHandlerContext;
import io.sluice.throttle.gate.GateConfig;
import io.sluice.throttle.gate.ThrottleGate;

/**
 * Chunk pacing for one node: gives the disk to the apps the gate does not pace. The gate decides per request when
 * work starts; a heavy app's admitted requests still put their chunk reads in the disk's queue one after another,
 * and every read of a light neighbour waits behind them. Here each chunk fetch of a paced app
 * ({@link ThrottleGate#paced}) waits, parked in a node-wide FIFO without holding a server thread, while chunks of
 * unpaced apps are being read or sent on the node; at most {@code pace.inFlight} paced chunks are out at once (0: one
 * per server thread), so an unpaced read waits behind at most that many. A parked chunk that has waited
 * {@code pace.parkMaxMs} goes at once whatever the others do, so no chunk waits longer and a connection never stays
 * quiet long enough for the client's idle timeout. Parked chunks go on, in order, on their own channel's event loop.
 *
 * <p>Counting: {@link #onChunk} counts a passed-on chunk on its stream's {@link TimedStreamManager.Tracked} (paced or
 * not); {@link #chunkDone} takes one off when Spark reports it sent, {@link #streamGone} the rest when the stream
 * failed or its connection closed. Everything here is O(1) per chunk; the lock guards the queue and the paced count.
 * Meter: {@code sluice.throttle.chunks.parked} (chunk fetches parked).
 */
final class ChunkPacer {
  private final ThrottleGate gate;
  /** pace.inFlight; 0: one per server thread ({@link #threads}). */
  private final int configuredInFlight;
  private final IntSupplier threads;
  private final long parkMaxNanos;
  /** Chunks of unpaced apps passed on to Spark and not yet sent. */
  private final AtomicInteger unpaced = new AtomicInteger();
  /** Chunks of paced apps passed on to Spark and not yet sent (guarded by this). */
  private int pacedInFlight;
  private final ArrayDeque<Parked> parked = new ArrayDeque<>();
  private boolean timerArmed;
  private final Counter parkedTotal;

  /** @param threads the server threads seen so far (for pace.inFlight=0) */
  ChunkPacer(ThrottleGate gate, IntSupplier threads) {
    this.gate = gate;
    this.threads = threads;
    this.parkedTotal = Counter.builder("sluice.throttle.chunks.parked")
        .description("Chunk fetches of paced apps parked while unpaced apps' chunks were being served")
        .register(gate.meters().registry());
    this.configuredInFlight = (int) (long) gate.config().get(GateConfig.PACE_IN_FLIGHT);
    this.parkMaxNanos = gate.config().nanos(GateConfig.PACE_PARK_MAX_MS);
  }

  /** Whether chunk pacing is on for {@code gate} (ENFORCE and pace.lingerMs &gt; 0). */
  static boolean enabled(ThrottleGate gate) {
    return gate.config().get(GateConfig.PACE_LINGER_MS) > 0
        && gate.config().mode() == io.sluice.throttle.gate.GateMode.ENFORCE;
  }

  /**
   * A chunk fetch {@code msg} of stream {@code t} arrived on {@code ctx}. True: pass it on now (counted); false: it
   * was parked and will be fired on {@code ctx} later.
   */
  boolean onChunk(ChannelHandlerContext ctx, Object msg, TimedStreamManager.Tracked t) {
    // Spark serves a stream's chunks only in order: behind a parked chunk of its stream a chunk parks too
    if (t.parkedNow.get() == 0 && !gate.paced(t.appId)) {
      unpaced.incrementAndGet();
      t.unpacedOut.incrementAndGet();
      return true;
    }
    synchronized (this) {
      if (parked.isEmpty() && pacedInFlight < maxInFlight() && unpaced.get() == 0) {
        pacedInFlight++;
        t.pacedOut.incrementAndGet();
        return true;
      }
      t.parkedNow.incrementAndGet();
      parked.addLast(new Parked(ctx, msg, t, System.nanoTime()));
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
        pacedInFlight--;
      }
      pump();
    } else if (takeOne(t.unpacedOut) && unpaced.decrementAndGet() == 0) {
      pump();
    }
  }

  /** Stream {@code t} ended (failed, or its connection closed): what it had out is no longer out. */
  void streamGone(TimedStreamManager.Tracked t) {
    int p = t.pacedOut.getAndSet(0);
    int u = t.unpacedOut.getAndSet(0);
    if (p > 0) {
      synchronized (this) {
        pacedInFlight -= p;
      }
    }
    if (u > 0) {
      unpaced.addAndGet(-u);
    }
    if (p + u > 0) {
      pump();
    }
  }

  /** Chunks passed on and not yet reported sent, paced and not (0 once the node is quiet: nothing leaks). */
  synchronized int outstanding() {
    return pacedInFlight + unpaced.get();
  }

  /** Chunk fetches parked so far. */
  long parkedTotal() {
    return (long) parkedTotal.count();
  }

  /** Chunks parked right now. */
  synchronized int parkedChunks() {
    return parked.size();
  }

  /** Sends on what may go now; arms a timer for the oldest parked chunk's deadline. */
  void pump() {
    List<Parked> refused = null;
    synchronized (this) {
      long now = System.nanoTime();
      int max = maxInFlight();
      while (!parked.isEmpty()) {
        Parked p = parked.peekFirst();
        boolean overdue = now - p.at >= parkMaxNanos;
        if (!overdue && (pacedInFlight >= max || unpaced.get() > 0)) {
          break;
        }
        parked.pollFirst();
        if (!p.ctx.channel().isActive()) {
          p.t.parkedNow.decrementAndGet();
          continue; // its connection closed: the stream manager finishes its ticket
        }
        pacedInFlight++;
        p.t.pacedOut.incrementAndGet();
        // handed to the channel's event loop under the lock: a stream's chunks reach it in the order they were
        // parked (Spark serves a stream's chunks only in order)
        try {
          p.ctx.executor().execute(() -> {
            p.t.parkedNow.decrementAndGet(); // on the channel's event loop: no later chunk is read in between
            p.ctx.fireChannelRead(p.msg);
          });
        } catch (RejectedExecutionException e) {
          p.t.parkedNow.decrementAndGet();
          (refused == null ? refused = new ArrayList<>() : refused).add(p); // shutting down
        }
      }
      Parked head = parked.peekFirst();
      if (head != null && !timerArmed && now - head.at < parkMaxNanos) {
        // waiting for unpaced work to drain: wake up at the head's deadline (a chunk done wakes us earlier)
        timerArmed = true;
        try {
          head.ctx.executor().schedule(this::timer, head.at + parkMaxNanos - now, TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException e) {
          timerArmed = false; // shutting down
        }
      }
    }
    if (refused != null) {
      for (Parked p : refused) {
        chunkDone(p.t);
      }
    }
  }

  private void timer() {
    synchronized (this) {
      timerArmed = false;
    }
    pump();
  }

  private int maxInFlight() {
    return configuredInFlight > 0 ? configuredInFlight : Math.max(1, threads.getAsInt());
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

  private record Parked(ChannelHandlerContext ctx, Object msg, TimedStreamManager.Tracked t, long at) {}
}
