package io.sluice.throttle.ess;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPipeline;
import org.apache.spark.network.protocol.ChunkFetchRequest;
import org.apache.spark.network.server.TransportChannelHandler;

/**
 * Sits in each server channel's pipeline right after Spark's decoder, before its {@link
 * TransportChannelHandler}: a chunk fetch of a stream the gate follows goes through the {@link
 * ChunkPacer}, which passes it on at once or parks it (the event loop returns at once and serves
 * the channel's other messages and the other channels). Everything else passes untouched.
 */
@ChannelHandler.Sharable
final class PacingHandler extends ChannelInboundHandlerAdapter {
  static final String NAME = "sluicePacing";

  private final ChunkPacer pacer;
  private final TimedStreamManager streams;

  PacingHandler(ChunkPacer pacer, TimedStreamManager streams) {
    this.pacer = pacer;
    this.streams = streams;
  }

  /**
   * Puts this handler in front of the channel's {@link TransportChannelHandler} (called when the
   * channel turns active, before anything was read from it). False if the pipeline has no such
   * handler (nothing is paced on it).
   */
  boolean install(Channel channel) {
    ChannelPipeline pipeline = channel.pipeline();
    ChannelHandlerContext spark = pipeline.context(TransportChannelHandler.class);
    if (spark == null || pipeline.get(NAME) != null) {
      return false;
    }
    pipeline.addBefore(spark.name(), NAME, this);
    return true;
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    if (msg instanceof ChunkFetchRequest r) {
      TimedStreamManager.Tracked t = streams.lookup(r.streamChunkId.streamId);
      if (t != null && !pacer.onChunk(ctx, msg, t)) {
        return;
      }
    }
    ctx.fireChannelRead(msg);
  }
}
