package io.sluice.throttle.yarn;

/**
 * The adapter as it would meet a Spark release that renamed the server's handler field: the hook
 * cannot go in, so the service must degrade to monitor-only and keep serving with Spark's own
 * handler. Loaded by the NodeManager from the test classes (its own aux-service class loader).
 */
public class RenamedFieldShuffleService extends SluiceYarnShuffleService {
  @Override
  protected ServerHook serverHook() {
    return new ServerHook("shuffleServer", "rpcHandlerOfAFutureSpark");
  }
}
