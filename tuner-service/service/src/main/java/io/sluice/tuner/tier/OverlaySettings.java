package io.sluice.tuner.tier;

/**
 * What the overlays need from configuration.
 *
 * @param yarn                the job's cluster runs on YARN
 * @param pushMergeOnEss      its NodeManagers' shuffle service runs Spark's push merge manager
 *                            ({@code spark.shuffle.push.server.mergedShuffleFileManagerImpl =
 *                            org.apache.spark.network.shuffle.RemoteBlockPushResolver})
 * @param celebornMasters     Celeborn master endpoints, {@code host:port[,host:port]} (empty: not configured)
 * @param celebornFallback    Celeborn's fallback policy: AUTO, ALWAYS or NEVER
 * @param uniffleQuorum       Uniffle coordinator quorum, {@code host:port[,host:port]} (empty: not configured)
 */
public record OverlaySettings(boolean yarn, boolean pushMergeOnEss, String celebornMasters, String celebornFallback,
    String uniffleQuorum) {
  public OverlaySettings {
    celebornMasters = celebornMasters == null ? "" : celebornMasters.trim();
    celebornFallback = celebornFallback == null || celebornFallback.isBlank() ? "AUTO" : celebornFallback.trim();
    uniffleQuorum = uniffleQuorum == null ? "" : uniffleQuorum.trim();
  }
}
