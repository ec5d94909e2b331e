package io.sluice.throttle.shim;

import java.lang.reflect.Field;
import org.apache.spark.network.client.TransportClientFactory;
import org.apache.spark.network.shuffle.BlockStoreClient;
import org.apache.spark.network.util.TransportConf;
import org.apache.spark.storage.BlockManager;

/**
 * The few Spark 3.5 internals the shim reaches by reflection, checked against the 3.5.7 sources:
 * {@code BlockManager.blockStoreClient} (a Scala {@code val}: a private final field read through
 * its accessor by every {@code BlockStoreShuffleReader} when a task starts reading a shuffle) and
 * the protected {@code BlockStoreClient} fields {@code clientFactory}, {@code transportConf} and
 * {@code appId}. Each accessor throws {@link IllegalStateException} naming what it could not reach,
 * so the plugin can log once and leave the app stock.
 */
final class SparkInternals {
  private SparkInternals() {}

  static BlockStoreClient blockStoreClient(BlockManager bm) {
    return (BlockStoreClient) get(field(BlockManager.class, "blockStoreClient"), bm);
  }

  static void setBlockStoreClient(BlockManager bm, BlockStoreClient client) {
    Field f = field(BlockManager.class, "blockStoreClient");
    try {
      f.set(bm, client);
    } catch (IllegalAccessException e) {
      throw new IllegalStateException("cannot set BlockManager.blockStoreClient: " + e, e);
    }
    if (bm.blockStoreClient() != client) {
      throw new IllegalStateException(
          "BlockManager.blockStoreClient() does not return the replaced client");
    }
  }

  static TransportClientFactory clientFactory(BlockStoreClient c) {
    return (TransportClientFactory) get(field(BlockStoreClient.class, "clientFactory"), c);
  }

  static TransportConf transportConf(BlockStoreClient c) {
    return (TransportConf) get(field(BlockStoreClient.class, "transportConf"), c);
  }

  static String appId(BlockStoreClient c) {
    return (String) get(field(BlockStoreClient.class, "appId"), c);
  }

  private static Field field(Class<?> owner, String name) {
    try {
      Field f = owner.getDeclaredField(name);
      f.setAccessible(true);
      return f;
    } catch (NoSuchFieldException | RuntimeException e) {
      throw new IllegalStateException(
          "no accessible field " + owner.getName() + "." + name + ": " + e, e);
    }
  }

  private static Object get(Field f, Object target) {
    try {
      return f.get(target);
    } catch (IllegalAccessException e) {
      throw new IllegalStateException("cannot read " + f + ": " + e, e);
    }
  }
}
