package io.sluice.throttle.ess;

import io.netty.channel.Channel;
import io.sluice.throttle.gate.Ticket;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.spark.network.buffer.ManagedBuffer;
import org.apache.spark.network.client.TransportClient;
import org.apache.spark.network.server.StreamManager;

/**
 * Wraps the block handler's {@link StreamManager} to see each fetch request through to its last
 * chunk.
 *
 * <p>What Spark 3.5 calls, and where: for a chunk fetch ({@code ChunkFetchRequestHandler}, on the
 * channel's event loop unless {@code spark.shuffle.server.chunkFetchHandlerThreadsPercent} gives it
 * its own pool) {@code checkAuthorization}, {@code getChunk}, {@code chunkBeingSent}, then {@code
 * chunkSent} from the write future's listener (on the event loop, whether the write succeeded or
 * not; a failed write also closes the channel). For a fetch-to-disk stream ({@code
 * TransportRequestHandler}): {@code openStream("<streamId>_<chunk>")}, {@code streamBeingSent},
 * {@code streamSent}. When the channel goes inactive: {@code connectionTerminated(channel)}.
 * Streams are registered inside the block handler (which keeps its own reference to the real
 * manager); the gate's handler tells this class about a stream with {@link #track} when the handler
 * answers the StreamHandle, before the client can ask for a chunk.
 *
 * <p>A tracked stream reports {@link Ticket#chunkSent()} per chunk and {@link
 * Ticket#finished(boolean)} after its last chunk was sent ({@code true}) or when fetching a chunk
 * failed or its connection closed ({@code false}).
 *
 * <p>Test mode: {@code getChunk} / {@code openStream} read through an {@link EmulatedDisk} (one
 * device shared by every server thread, or a sleep per thread), on the serving thread, where a slow
 * disk would stall it.
 */
final class TimedStreamManager extends StreamManager {
  private final StreamManager delegate;
  private final EmulatedDisk disk;
  private final Map<Long, Tracked> tracked = new ConcurrentHashMap<>();

  /** Chunk pacing, told about chunks sent and streams gone; null: off. */
  private volatile ChunkPacer pacer;

  TimedStreamManager(StreamManager delegate, EmulatedDisk disk) {
    this.delegate = delegate;
    this.disk = disk;
  }

  /** Reports chunks sent and streams gone to {@code p} from now on. */
  void pacer(ChunkPacer p) {
    this.pacer = p;
  }

  /**
   * Follows stream {@code streamId} of {@code chunks} chunks of {@code appId} on {@code channel}
   * for {@code ticket}.
   */
  void track(long streamId, int chunks, Channel channel, String appId, Ticket ticket) {
    if (chunks <= 0) {
      ticket.finished(true);
      return;
    }
    tracked.put(streamId, new Tracked(ticket, channel, chunks, appId));
  }

  /** The followed stream {@code streamId}; null if it is not followed (or no longer). */
  Tracked lookup(long streamId) {
    return tracked.get(streamId);
  }

  /** Streams followed right now (for tests and the snapshot). */
  int trackedStreams() {
    return tracked.size();
  }

  @Override
  public ManagedBuffer getChunk(long streamId, int chunkIndex) {
    disk.read();
    try {
      return delegate.getChunk(streamId, chunkIndex);
    } catch (RuntimeException e) {
      fail(streamId);
      throw e;
    }
  }

  @Override
  public ManagedBuffer openStream(String streamChunkId) {
    disk.read();
    try {
      return delegate.openStream(streamChunkId);
    } catch (RuntimeException e) {
      fail(streamIdOf(streamChunkId));
      throw e;
    }
  }

  @Override
  public void chunkSent(long streamId) {
    delegate.chunkSent(streamId);
    sent(streamId);
  }

  @Override
  public void streamSent(String streamId) {
    delegate.streamSent(streamId);
    sent(streamIdOf(streamId));
  }

  @Override
  public void connectionTerminated(Channel channel) {
    try {
      delegate.connectionTerminated(channel);
    } finally {
      Iterator<Map.Entry<Long, Tracked>> it = tracked.entrySet().iterator();
      while (it.hasNext()) {
        Map.Entry<Long, Tracked> e = it.next();
        if (e.getValue().channel == channel && tracked.remove(e.getKey(), e.getValue())) {
          gone(e.getValue());
          e.getValue().ticket.finished(false);
        }
      }
    }
  }

  @Override
  public void checkAuthorization(TransportClient client, long streamId) {
    delegate.checkAuthorization(client, streamId);
  }

  @Override
  public long chunksBeingTransferred() {
    return delegate.chunksBeingTransferred();
  }

  @Override
  public void chunkBeingSent(long streamId) {
    delegate.chunkBeingSent(streamId);
  }

  @Override
  public void streamBeingSent(String streamId) {
    delegate.streamBeingSent(streamId);
  }

  private void sent(long streamId) {
    Tracked t = tracked.get(streamId);
    if (t == null) {
      return;
    }
    t.ticket.chunkSent();
    ChunkPacer p = pacer;
    if (p != null) {
      p.chunkDone(t);
    }
    if (t.sent.incrementAndGet() >= t.chunks && tracked.remove(streamId, t)) {
      gone(t);
      t.ticket.finished(true);
    }
  }

  private void fail(long streamId) {
    Tracked t = streamId < 0 ? null : tracked.remove(streamId);
    if (t != null) {
      gone(t);
      t.ticket.finished(false);
    }
  }

  private void gone(Tracked t) {
    ChunkPacer p = pacer;
    if (p != null) {
      p.streamGone(t);
    }
  }

  /**
   * The stream id of Spark's {@code "<streamId>_<chunkIndex>"} stream names; -1 if it is not one.
   */
  static long streamIdOf(String streamChunkId) {
    int sep = streamChunkId == null ? -1 : streamChunkId.indexOf('_');
    if (sep <= 0) {
      return -1;
    }
    try {
      return Long.parseLong(streamChunkId, 0, sep, 10);
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  /** One followed stream. */
  static final class Tracked {
    final Ticket ticket;
    final Channel channel;
    final int chunks;
    final String appId;
    final AtomicInteger sent = new AtomicInteger();

    /** Chunk pacing's count of this stream's chunks passed on and not yet sent, paced and not. */
    final AtomicInteger pacedOut = new AtomicInteger();

    final AtomicInteger unpacedOut = new AtomicInteger();

    /**
     * Chunks of this stream parked and not yet fired on (its later chunks park behind them: Spark
     * wants order).
     */
    final AtomicInteger parkedNow = new AtomicInteger();

    Tracked(Ticket ticket, Channel channel, int chunks, String appId) {
      this.ticket = ticket;
      this.channel = channel;
      this.chunks = chunks;
      this.appId = appId;
    }
  }
}
