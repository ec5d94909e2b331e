package io.sluice.throttle.ess;

import io.netty.channel.Channel;
import io.netty.util.AttributeKey;
import io.sluice.throttle.gate.Connection;
import io.sluice.throttle.gate.Decision;
import io.sluice.throttle.gate.GateConfig;
import io.sluice.throttle.gate.Lane;
import io.sluice.throttle.gate.ThrottleGate;
import io.sluice.throttle.gate.Ticket;
import io.sluice.throttle.protocol.SluiceDirective;
import io.sluice.throttle.protocol.SluiceHello;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.spark.network.client.RpcResponseCallback;
import org.apache.spark.network.client.StreamCallbackWithID;
import org.apache.spark.network.client.TransportClient;
import org.apache.spark.network.server.RpcHandler;
import org.apache.spark.network.server.StreamManager;
import org.apache.spark.network.shuffle.protocol.BlockTransferMessage;
import org.apache.spark.network.shuffle.protocol.StreamHandle;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gate in front of a shuffle service's RPC handler (Spark's {@code ExternalBlockHandler}, or
 * any {@link RpcHandler}).
 *
 * <ul>
 *   <li>Fetch requests (OpenBlocks, FetchShuffleBlocks, FetchShuffleBlockChunks) go through {@link
 *       ThrottleGate#onFetch}, with the client channel's {@link Connection} (for activity-aware
 *       hold deadlines; the gate counts the request and each chunk sent as activity): ADMIT is
 *       served at once; HOLD parks the request and returns (an event-loop thread never waits), and
 *       the gate's later release runs the delegate on the client channel's event loop; SLEEP (only
 *       ever decided for shim apps) answers with the directive string.
 *   <li>Everything else (executor registration, removals, local dirs, push/merge messages,
 *       finalisation, ...) goes to the delegate untouched and at once; executor registrations are
 *       counted by their shuffle manager class ({@link ExecutorRegistrations}).
 *   <li>A Sluice HELLO (see {@link SluiceHello}) is answered here; Spark never sees it. When {@link
 *       ShimHellos} believes it (the connection authenticated as that app, or trust on first use
 *       without authentication), the app is marked as a shim app and the connection as one that may
 *       be sent SLEEP; otherwise it is refused with an error and counted.
 * </ul>
 *
 * When a client channel turns active, two handlers join its pipeline: {@link ArrivalStamp} in front
 * of Spark's frame decoder (a fetch's arrival, for the gate's wait signal, is the start of the read
 * it came in) and, with chunk pacing on, {@link PacingHandler} in front of Spark's request handler
 * ({@link ChunkPacer}).
 *
 * <p>Each served request is followed to its last chunk through {@link TimedStreamManager} (which
 * wraps the delegate's stream manager): the StreamHandle the delegate answers gives the stream id
 * and chunk count.
 */
public final class GatedRpcHandler extends RpcHandler {
  private static final Logger LOG = LoggerFactory.getLogger(GatedRpcHandler.class);

  /**
   * The gate's view of each client channel (activity-aware hold deadlines), kept with the channel.
   */
  private static final AttributeKey<Connection> CONNECTION =
      AttributeKey.valueOf("sluice.throttle.connection");

  private final RpcHandler delegate;
  private final ThrottleGate gate;
  private final TimedStreamManager streams;
  private final ExecutorRegistrations registrations;
  private final ShimHellos hellos;

  /** Chunk pacing's pipeline handler; null when pacing is off. */
  private final PacingHandler pacing;

  private final ChunkPacer pacer;

  /** The gate's view of each server event loop (a handful, fixed for the server's life). */
  private final Map<Object, Lane> lanes = new ConcurrentHashMap<>();

  /** Held requests per channel, so a closed connection cancels its own. */
  private final Map<Channel, Set<Pending>> held = new ConcurrentHashMap<>();

  /** Whether a gate failure was logged already (later ones are only counted). */
  private final AtomicBoolean gateFailureLogged = new AtomicBoolean();

  /** Whether a channel without Spark's request handler was logged already. */
  private final AtomicBoolean pacingWarned = new AtomicBoolean();

  /**
   * @param delegate the real handler
   * @param gate the decision core
   * @param ioDelayMillis test only: delay per chunk read (emulated slow disk, one device or per
   *     thread as the gate's test.ioModel says); 0 = off
   */
  public GatedRpcHandler(RpcHandler delegate, ThrottleGate gate, long ioDelayMillis) {
    this.delegate = delegate;
    this.gate = gate;
    this.streams =
        new TimedStreamManager(
            delegate.getStreamManager(),
            EmulatedDisk.of(gate.config().get(GateConfig.TEST_IO_MODEL), ioDelayMillis));
    this.registrations = new ExecutorRegistrations(gate.meters().registry());
    this.hellos = new ShimHellos(gate.meters().registry(), ShimHellos.DEFAULT_MAX_APPS);
    this.pacer = ChunkPacer.enabled(gate) ? new ChunkPacer(gate) : null;
    this.pacing = pacer != null ? new PacingHandler(pacer, streams) : null;
    streams.pacer(pacer);
  }

  /** Chunk fetches parked by chunk pacing so far (0 when pacing is off). */
  public long parkedChunksTotal() {
    return pacer != null ? pacer.parkedTotal() : 0;
  }

  /** Chunk pacing's chunks passed on and not yet sent (0 when pacing is off). */
  int pacingOutstanding() {
    return pacer != null ? pacer.outstanding() : 0;
  }

  /** Chunk fetches parked by chunk pacing right now (0 when pacing is off). */
  public int parkedChunks() {
    return pacer != null ? pacer.parkedChunks() : 0;
  }

  public ThrottleGate gate() {
    return gate;
  }

  /** Requests parked here right now (waiting for the gate's release). */
  public int parkedRequests() {
    int n = 0;
    for (Set<Pending> s : held.values()) {
      n += s.size();
    }
    return n;
  }

  /** Served streams not yet finished. */
  public int trackedStreams() {
    return streams.trackedStreams();
  }

  @Override
  public void receive(TransportClient client, ByteBuffer message, RpcResponseCallback callback) {
    if (SluiceHello.isHello(message)) {
      hello(client, message, callback);
      return;
    }
    FetchRequest fetch = FetchRequest.classify(message);
    if (fetch == null) {
      registrations.observe(message);
      delegate.receive(client, message, callback);
      return;
    }
    Pending pending = new Pending(client, message, callback, fetch.appId());
    Ticket ticket;
    try {
      ticket =
          new FailSafeTicket(
              gate.onFetch(
                  fetch.appId(),
                  connection(client.getChannel()),
                  fetch.blocks(),
                  ArrivalStamp.arrival(client.getChannel()),
                  message.remaining(),
                  pending::release),
              gate.meters(),
              gateFailureLogged);
    } catch (RuntimeException e) {
      // the gate failed: serve the request as if there were no gate (fail-open, counted), never
      // fail the fetch
      FailSafeTicket.failed(gate.meters(), gateFailureLogged, "onFetch", e);
      delegate.receive(client, message, callback);
      return;
    }
    Decision decision = ticket.decision();
    if (decision == Decision.ADMIT) {
      serve(client, message, callback, fetch.appId(), ticket, false);
    } else if (decision == Decision.HOLD) {
      pending.park(ticket);
    } else {
      callback.onFailure(
          new DirectiveFailure(new SluiceDirective(ticket.sleepMillis(), fetch.appId()).format()));
    }
  }

  @Override
  public void receive(TransportClient client, ByteBuffer message) {
    if (SluiceHello.isHello(message)) {
      hello(client, message, null);
    } else {
      delegate.receive(client, message);
    }
  }

  private Connection connection(Channel channel) {
    Connection c = channel.attr(CONNECTION).get();
    if (c == null) {
      // a channel's chunks are written by its event loop: that thread is the connection's lane
      Connection fresh =
          new Connection(lanes.computeIfAbsent(channel.eventLoop(), l -> new Lane()));
      c = channel.attr(CONNECTION).setIfAbsent(fresh);
      if (c == null) {
        c = fresh;
      }
    }
    return c;
  }

  private void hello(TransportClient client, ByteBuffer message, RpcResponseCallback callback) {
    SluiceHello hello;
    try {
      hello = SluiceHello.decode(message);
    } catch (IllegalArgumentException e) {
      if (callback != null) {
        callback.onFailure(e);
      }
      return;
    }
    Channel channel = client.getChannel();
    String peer = channel.remoteAddress() instanceof InetSocketAddress a ? a.getHostString() : null;
    ShimHellos.Refusal refused = hellos.check(hello, client.getClientId(), peer);
    if (refused != null) {
      String why =
          "Sluice HELLO for app "
              + hello.appId()
              + " refused ("
              + refused.tag
              + "): "
              + (refused == ShimHellos.Refusal.IDENTITY_MISMATCH
                  ? "the connection authenticated as " + client.getClientId()
                  : "that app id was first announced from another host");
      if (hellos.warnAbout()) {
        LOG.warn("{} (from {})", why, channel.remoteAddress());
      }
      if (callback != null) {
        callback.onFailure(new SecurityException(why));
      }
      return;
    }
    gate.markShim(hello.appId());
    connection(channel).shimAnnounced();
    LOG.debug(
        "shim HELLO from app {} executor {} (shim {})",
        hello.appId(),
        hello.execId(),
        hello.shimVersion());
    if (callback != null) {
      callback.onSuccess(ByteBuffer.allocate(0));
    }
  }

  /** Runs the delegate for a fetch, following the stream it registers. */
  private void serve(
      TransportClient client,
      ByteBuffer message,
      RpcResponseCallback callback,
      String appId,
      Ticket ticket,
      boolean released) {
    Channel channel = client.getChannel();
    if (released && !channel.isActive()) {
      ticket.finished(false);
      return;
    }
    try {
      delegate.receive(
          client, message, new StreamFollowingCallback(callback, appId, ticket, channel));
    } catch (RuntimeException e) {
      ticket.finished(false);
      if (!released) {
        throw e; // Spark's request handler answers it with an RpcFailure, exactly as without the
        // gate
      }
      LOG.error("Error while serving a released fetch request", e);
      callback.onFailure(e);
    }
  }

  @Override
  public StreamManager getStreamManager() {
    return streams;
  }

  @Override
  public StreamCallbackWithID receiveStream(
      TransportClient client, ByteBuffer messageHeader, RpcResponseCallback callback) {
    return delegate.receiveStream(client, messageHeader, callback);
  }

  @Override
  public MergedBlockMetaReqHandler getMergedBlockMetaReqHandler() {
    return delegate.getMergedBlockMetaReqHandler();
  }

  @Override
  public void channelActive(TransportClient client) {
    ArrivalStamp.install(client.getChannel());
    if (pacing != null
        && !pacing.install(client.getChannel())
        && pacingWarned.compareAndSet(false, true)) {
      LOG.warn(
          "chunk pacing is off on channel {}: its pipeline has no Spark request handler ({})",
          client.getChannel(),
          client.getChannel().pipeline().names());
    }
    delegate.channelActive(client);
  }

  @Override
  public void channelInactive(TransportClient client) {
    try {
      Set<Pending> parked = held.remove(client.getChannel());
      if (parked != null) {
        for (Pending p : parked) {
          p.cancel();
        }
      }
    } finally {
      delegate.channelInactive(client);
    }
  }

  @Override
  public void exceptionCaught(Throwable cause, TransportClient client) {
    delegate.exceptionCaught(cause, client);
  }

  /**
   * Answers the StreamHandle to the client after telling the stream manager to follow the stream.
   */
  private final class StreamFollowingCallback implements RpcResponseCallback {
    private final RpcResponseCallback callback;
    private final String appId;
    private final Ticket ticket;
    private final Channel channel;

    StreamFollowingCallback(
        RpcResponseCallback callback, String appId, Ticket ticket, Channel channel) {
      this.callback = callback;
      this.appId = appId;
      this.ticket = ticket;
      this.channel = channel;
    }

    @Override
    public void onSuccess(ByteBuffer response) {
      StreamHandle handle = null;
      try {
        if (BlockTransferMessage.Decoder.fromByteBuffer(response.duplicate())
            instanceof StreamHandle h) {
          handle = h;
        }
      } catch (RuntimeException e) {
        handle = null;
      }
      if (handle == null) {
        ticket.finished(true); // nothing streamed: the answer itself was the work
      } else {
        ticket.served(handle.numChunks);
        streams.track(handle.streamId, handle.numChunks, channel, appId, ticket);
      }
      callback.onSuccess(response);
    }

    @Override
    public void onFailure(Throwable e) {
      ticket.finished(false);
      callback.onFailure(e);
    }
  }

  /**
   * A held fetch. The gate's release ({@link #release}, from its tick thread) and the hand-over of
   * the ticket ({@link #park}, on the receiving thread) can come in either order: whichever comes
   * second dispatches the request to the channel's event loop.
   */
  private final class Pending {
    private static final int PARKED = 1;
    private static final int RELEASED = 2;

    private final TransportClient client;
    private final RpcResponseCallback callback;
    private final String appId;
    private final AtomicInteger state = new AtomicInteger();
    private ByteBuffer message;
    private Ticket ticket;

    Pending(
        TransportClient client, ByteBuffer message, RpcResponseCallback callback, String appId) {
      this.client = client;
      this.appId = appId;
      this.message = message;
      this.callback = callback;
    }

    /**
     * The gate held it: keep a copy of the body (Spark releases the request's buffer when receive
     * returns).
     */
    void park(Ticket heldTicket) {
      ByteBuffer copy = ByteBuffer.allocate(message.remaining());
      copy.put(message.duplicate()).flip();
      message = copy;
      ticket = heldTicket;
      held.compute(
          client.getChannel(),
          (c, s) -> {
            Set<Pending> set = s != null ? s : ConcurrentHashMap.newKeySet();
            set.add(this);
            return set;
          });
      if (!client.getChannel().isActive()) {
        cancel(); // closed before we parked: channelInactive may already have run
      }
      if (state.getAndAdd(PARKED) == RELEASED) {
        dispatch();
      }
    }

    /** The gate's {@code proceed}: cheap, hands the work to the channel's event loop. */
    void release() {
      if (state.getAndAdd(RELEASED) == PARKED) {
        dispatch();
      }
    }

    void cancel() {
      forget();
      ticket.finished(false); // the gate drops it if still held; idempotent otherwise
    }

    private void forget() {
      held.computeIfPresent(
          client.getChannel(),
          (c, s) -> {
            s.remove(this);
            return s.isEmpty() ? null : s;
          });
    }

    private void dispatch() {
      forget();
      try {
        client
            .getChannel()
            .eventLoop()
            .execute(() -> serve(client, message, callback, appId, ticket, true));
      } catch (RejectedExecutionException e) {
        ticket.finished(false); // the server is shutting down
      }
    }
  }
}
