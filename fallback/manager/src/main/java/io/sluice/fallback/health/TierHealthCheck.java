package io.sluice.fallback.health;

import io.sluice.contracts.Tier;
import io.sluice.fallback.conf.TierKeys;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** The cheapest real sign of life of a tier, checked on the driver before the first shuffle. */
@FunctionalInterface
public interface TierHealthCheck {

  /**
   * @throws IllegalArgumentException if the conf the check needs is missing or malformed (the
   *     message names it)
   */
  Health check(Map<String, String> conf, Duration timeout);

  /**
   * The standard check of {@code tier}: Celeborn — a master of {@value TierKeys#CELEBORN_MASTERS}
   * accepts a TCP connection; Uniffle — a coordinator of {@value TierKeys#UNIFFLE_COORDINATORS}
   * does; Spark push-based shuffle — nothing to check beyond YARN with the ESS (its merge manager
   * is the ESS itself); the ESS — nothing.
   */
  static TierHealthCheck standard(Tier tier) {
    return switch (tier) {
      case CELEBORN ->
          anyEndpoint(
              TierKeys.CELEBORN_MASTERS, TierKeys.CELEBORN_DEFAULT_MASTER_PORT, "Celeborn master");
      case UNIFFLE ->
          anyEndpoint(
              TierKeys.UNIFFLE_COORDINATORS,
              TierKeys.UNIFFLE_DEFAULT_COORDINATOR_PORT,
              "Uniffle coordinator");
      case SPARK_PUSH ->
          (conf, timeout) -> {
            // Spark itself only runs push-based shuffle on YARN with the ESS; anywhere else it
            // would silently not push
            String master = conf.getOrDefault(TierKeys.SPARK_MASTER, "");
            boolean ess =
                Boolean.parseBoolean(
                    conf.getOrDefault(TierKeys.SHUFFLE_SERVICE_ENABLED, "false").trim());
            return master.trim().startsWith("yarn") && ess
                ? Health.up("YARN with the ESS")
                : Health.down(
                    "Spark push-based shuffle needs YARN and the ESS ("
                        + TierKeys.SPARK_MASTER
                        + "="
                        + master
                        + ", "
                        + TierKeys.SHUFFLE_SERVICE_ENABLED
                        + "="
                        + ess
                        + ")");
          };
      case ESS -> (conf, timeout) -> Health.up("nothing to check");
    };
  }

  private static TierHealthCheck anyEndpoint(String key, int defaultPort, String what) {
    return (conf, timeout) -> {
      List<Endpoint> endpoints;
      try {
        endpoints = Endpoint.parseList(conf.get(key), defaultPort);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(key + ": " + e.getMessage(), e);
      }
      Health h = TcpProbe.anyAccepts(endpoints, timeout);
      return h.healthy()
          ? h
          : Health.down(
              "no " + what + " answered within " + timeout.toMillis() + " ms (" + h.detail() + ")");
    };
  }
}
