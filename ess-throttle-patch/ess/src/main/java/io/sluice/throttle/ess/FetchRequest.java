package io.sluice.throttle.ess;

import java.nio.ByteBuffer;
import org.apache.spark.network.shuffle.protocol.AbstractFetchShuffleBlocks;
import org.apache.spark.network.shuffle.protocol.BlockTransferMessage;
import org.apache.spark.network.shuffle.protocol.OpenBlocks;

/**
 * The little the gate needs to know about a fetch RPC: whose it is and how many blocks it asks for.
 * Anything that is not a fetch (registration, removals, local dirs, push/merge messages, ...)
 * classifies as {@code null} from its first byte alone, without decoding.
 *
 * @param appId the requesting application
 * @param blocks blocks (or merged chunks) asked for
 */
record FetchRequest(String appId, int blocks) {
  private static final byte OPEN_BLOCKS = BlockTransferMessage.Type.OPEN_BLOCKS.id();
  private static final byte FETCH_SHUFFLE_BLOCKS =
      BlockTransferMessage.Type.FETCH_SHUFFLE_BLOCKS.id();
  private static final byte FETCH_SHUFFLE_BLOCK_CHUNKS =
      BlockTransferMessage.Type.FETCH_SHUFFLE_BLOCK_CHUNKS.id();

  /**
   * The fetch in {@code body} (left untouched), or null when the body is not a fetch request or
   * does not decode.
   */
  static FetchRequest classify(ByteBuffer body) {
    if (!body.hasRemaining()) {
      return null;
    }
    byte type = body.get(body.position());
    if (type != OPEN_BLOCKS && type != FETCH_SHUFFLE_BLOCKS && type != FETCH_SHUFFLE_BLOCK_CHUNKS) {
      return null;
    }
    BlockTransferMessage msg;
    try {
      msg = BlockTransferMessage.Decoder.fromByteBuffer(body.duplicate());
    } catch (RuntimeException e) {
      return null; // malformed: the delegate answers it as it always would
    }
    if (msg instanceof OpenBlocks open) {
      return new FetchRequest(open.appId, open.blockIds.length);
    }
    if (msg instanceof AbstractFetchShuffleBlocks fetch) {
      return new FetchRequest(fetch.appId, fetch.getNumBlocks());
    }
    return null;
  }
}
