package io.sluice.tuner.tier;

import io.sluice.contracts.Tier;

/**
 * What the overlays need from configuration.
 *
 * @param yarn the job's cluster runs on YARN
 * @param pushMergeOnEss its NodeManagers' shuffle service runs Spark's push merge manager ({@code
 *     spark.shuffle.push.server.mergedShuffleFileManagerImpl =
 *     org.apache.spark.network.shuffle.RemoteBlockPushResolver})
 * @param celebornMasters Celeborn master endpoints, {@code host:port[,host:port]} (empty: not
 *     configured)
 * @param celebornFallback Celeborn's fallback policy: AUTO, ALWAYS or NEVER
 * @param uniffleQuorum Uniffle coordinator quorum, {@code host:port[,host:port]} (empty: not
 *     configured)
 * @param managerJar where the {@code sluice-fallback-manager} jar lives on the cluster's nodes
 *     (driver and executor hosts), a local path (empty: not configured, every push tier is refused)
 * @param celebornClientJar where Celeborn's Spark client jar lives on the nodes (empty: in {@code
 *     $SPARK_HOME/jars})
 * @param uniffleClientJar where Uniffle's Spark client jar lives on the nodes (empty: in {@code
 *     $SPARK_HOME/jars})
 */
public record OverlaySettings(
    boolean yarn,
    boolean pushMergeOnEss,
    String celebornMasters,
    String celebornFallback,
    String uniffleQuorum,
    String managerJar,
    String celebornClientJar,
    String uniffleClientJar) {
  public OverlaySettings {
    celebornMasters = trim(celebornMasters);
    celebornFallback =
        celebornFallback == null || celebornFallback.isBlank() ? "AUTO" : celebornFallback.trim();
    uniffleQuorum = trim(uniffleQuorum);
    managerJar = trim(managerJar);
    celebornClientJar = trim(celebornClientJar);
    uniffleClientJar = trim(uniffleClientJar);
  }

  /**
   * The client jar of {@code tier} to put on the class paths (empty: none; SPARK_PUSH needs none).
   */
  public String clientJar(Tier tier) {
    return switch (tier) {
      case CELEBORN -> celebornClientJar;
      case UNIFFLE -> uniffleClientJar;
      default -> "";
    };
  }

  private static String trim(String s) {
    return s == null ? "" : s.trim();
  }
}
