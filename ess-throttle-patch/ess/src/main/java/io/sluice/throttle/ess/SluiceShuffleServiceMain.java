package io.sluice.throttle.ess;

import java.util.Arrays;
import java.util.Map;
import org.apache.spark.SecurityManager;
import org.apache.spark.SparkConf;
import org.apache.spark.deploy.ExternalShuffleService;
import org.apache.spark.deploy.ExternalShuffleService$;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.Tuple2;
import scala.runtime.AbstractFunction2;

/**
 * Main class of the standalone ESS with the throttle gate: Spark's own ESS start-up ({@code
 * ExternalShuffleService.main(args, factory)}: Spark conf and defaults file, security, shutdown
 * hook) with {@link SluiceExternalShuffleService} as the service. The gate's configuration is read
 * from JVM system properties {@code sluice.throttle.*} and the Spark conf's {@code
 * spark.sluice.throttle.*} (see {@link EssSettings}); a bad key or value stops start-up with a
 * message naming it.
 */
public final class SluiceShuffleServiceMain {
  private static final Logger LOG = LoggerFactory.getLogger(SluiceShuffleServiceMain.class);

  private SluiceShuffleServiceMain() {}

  public static void main(String[] args) {
    try {
      ExternalShuffleService$.MODULE$.main(args, new Factory());
    } catch (Throwable t) {
      // Spark's start-up failed (a bad local dir, a recovery database it cannot open, a port in
      // use): the gate's
      // own threads (priority refresh, event publisher) must not keep a process alive that serves
      // nothing.
      LOG.error("The External Shuffle Service failed to start; exiting", t);
      System.exit(1);
    }
  }

  /** Called by Spark with its conf and security manager once they are set up. */
  static final class Factory
      extends AbstractFunction2<SparkConf, SecurityManager, ExternalShuffleService> {
    @Override
    public ExternalShuffleService apply(SparkConf conf, SecurityManager securityManager) {
      Map<String, String> props =
          EssSettings.collect(
              System.getProperties(),
              Arrays.stream(conf.getAll()).map(SluiceShuffleServiceMain::entry).toList());
      props = ServerIdleTimeout.capHold(props, ServerIdleTimeout.millis(k -> conf.get(k, null)));
      GateRuntime runtime = GateRuntime.start(props);
      Runtime.getRuntime().addShutdownHook(new Thread(runtime::close, "sluice-gate-stop"));
      LOG.info("Starting the External Shuffle Service with the Sluice throttle gate");
      return SluiceExternalShuffleService.create(
          conf, securityManager, runtime.gate(), runtime.ioDelayMillis());
    }
  }

  private static Map.Entry<String, String> entry(Tuple2<String, String> t) {
    return Map.entry(t._1(), t._2());
  }
}
