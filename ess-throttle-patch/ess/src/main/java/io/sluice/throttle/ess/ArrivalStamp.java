package io.sluice.throttle.ess;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPipeline;
import io.netty.util.AttributeKey;
import org.apache.spark.network.util.TransportFrameDecoder;

/**
 * Notes when each read off a server channel began, in front of Spark's frame decoder. Spark decodes
 * a read's bytes into messages and handles them one after another on the event loop, synchronously:
 * a fetch RPC that arrived in the same read as a run of chunk fetches reaches the RPC handler only
 * after their disk reads. The gate counts a request's wait from {@link #arrival} (the start of the
 * read it came in), so that time counts as waiting.
 */
@ChannelHandler.Sharable
final class ArrivalStamp extends ChannelInboundHandlerAdapter {
  static final String NAME = "sluiceArrival";
  static final ArrivalStamp INSTANCE = new ArrivalStamp();
  private static final AttributeKey<long[]> READ_AT =
      AttributeKey.valueOf("sluice.throttle.readAt");

  private ArrivalStamp() {}

  /**
   * Puts the stamp in front of the channel's frame decoder; false if there is none (or it is there
   * already).
   */
  static boolean install(Channel channel) {
    ChannelPipeline pipeline = channel.pipeline();
    ChannelHandlerContext decoder = pipeline.context(TransportFrameDecoder.class);
    if (decoder == null || pipeline.get(NAME) != null) {
      return false;
    }
    channel.attr(READ_AT).set(new long[] {Long.MIN_VALUE});
    pipeline.addBefore(decoder.name(), NAME, INSTANCE);
    return true;
  }

  /**
   * When the read that carried the message being handled now on {@code channel} began ({@link
   * System#nanoTime()}); {@link Long#MIN_VALUE} if the channel has no stamp (the gate then counts
   * from when it sees the request).
   */
  static long arrival(Channel channel) {
    long[] at = channel.attr(READ_AT).get();
    return at == null ? Long.MIN_VALUE : at[0];
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    long[] at = ctx.channel().attr(READ_AT).get();
    if (at != null) {
      at[0] = System.nanoTime(); // only this channel's event loop writes and reads it
    }
    ctx.fireChannelRead(msg);
  }
}
