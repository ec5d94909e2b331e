package io.sluice.throttle.ess;

import com.codahale.metrics.MetricSet;
import io.sluice.throttle.gate.ThrottleGate;
import java.nio.ByteBuffer;
import org.apache.spark.network.client.MergedBlockMetaResponseCallback;
import org.apache.spark.network.client.RpcResponseCallback;
import org.apache.spark.network.client.StreamCallbackWithID;
import org.apache.spark.network.client.TransportClient;
import org.apache.spark.network.protocol.MergedBlockMetaRequest;
import org.apache.spark.network.server.OneForOneStreamManager;
import org.apache.spark.network.server.StreamManager;
import org.apache.spark.network.shuffle.ExternalBlockHandler;
import org.apache.spark.network.shuffle.ExternalShuffleBlockResolver;

/**
 * What the standalone ESS's {@code newShuffleBlockHandler} returns: it must be an {@link
 * ExternalBlockHandler} (the service also calls {@code applicationRemoved}, {@code
 * executorRemoved}, {@code getAllMetrics} and {@code close} on it). It serves nothing itself: RPCs
 * and streams go through the {@link GatedRpcHandler}, every other call to the stock handler Spark
 * built (with its registered-executors DB and all).
 */
final class GatedExternalBlockHandler extends ExternalBlockHandler {
  private final ExternalBlockHandler stock;
  private final GatedRpcHandler gated;

  GatedExternalBlockHandler(ExternalBlockHandler stock, ThrottleGate gate, long ioDelayMillis) {
    // The superclass's own state is never used: every public method is forwarded below.
    super((OneForOneStreamManager) stock.getStreamManager(), stock.getBlockResolver());
    this.stock = stock;
    this.gated = new GatedRpcHandler(stock, gate, ioDelayMillis);
  }

  GatedRpcHandler gated() {
    return gated;
  }

  @Override
  public void receive(TransportClient client, ByteBuffer message, RpcResponseCallback callback) {
    gated.receive(client, message, callback);
  }

  @Override
  public void receive(TransportClient client, ByteBuffer message) {
    gated.receive(client, message);
  }

  @Override
  public StreamManager getStreamManager() {
    return gated.getStreamManager();
  }

  @Override
  public StreamCallbackWithID receiveStream(
      TransportClient client, ByteBuffer messageHeader, RpcResponseCallback callback) {
    return gated.receiveStream(client, messageHeader, callback);
  }

  @Override
  public MergedBlockMetaReqHandler getMergedBlockMetaReqHandler() {
    return stock.getMergedBlockMetaReqHandler();
  }

  @Override
  public void receiveMergeBlockMetaReq(
      TransportClient client,
      MergedBlockMetaRequest metaRequest,
      MergedBlockMetaResponseCallback callback) {
    stock.receiveMergeBlockMetaReq(client, metaRequest, callback);
  }

  @Override
  public void channelActive(TransportClient client) {
    gated.channelActive(client);
  }

  @Override
  public void channelInactive(TransportClient client) {
    gated.channelInactive(client);
  }

  @Override
  public void exceptionCaught(Throwable cause, TransportClient client) {
    gated.exceptionCaught(cause, client);
  }

  @Override
  public ExternalShuffleBlockResolver getBlockResolver() {
    return stock.getBlockResolver();
  }

  @Override
  public MetricSet getAllMetrics() {
    return stock.getAllMetrics();
  }

  @Override
  public void applicationRemoved(String appId, boolean cleanupLocalDirs) {
    try {
      stock.applicationRemoved(appId, cleanupLocalDirs);
    } finally {
      gated.gate().appEnded(appId);
    }
  }

  @Override
  public void executorRemoved(String executorId, String appId) {
    stock.executorRemoved(executorId, appId);
  }

  @Override
  public void close() {
    stock.close();
  }
}
