package io.sluice.testing.yarn;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.service.Service;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.MiniYARNCluster;
import org.apache.hadoop.yarn.server.nodemanager.NodeManager;
import org.apache.hadoop.yarn.server.nodemanager.containermanager.AuxServices;
import org.apache.hadoop.yarn.webapp.util.WebAppUtils;

/**
 * A real YARN cluster in the test JVM: one ResourceManager and one NodeManager (MiniYARNCluster,
 * Hadoop 3.4) whose aux service {@value #SHUFFLE_SERVICE} is Spark's {@code YarnShuffleService} or
 * a subclass of it, optionally loaded from its own classpath in an isolated class loader ({@code
 * yarn.nodemanager.aux-services.spark_shuffle.classpath}, as a real NM does) so Spark's
 * Netty/Jackson never meet Hadoop's.
 *
 * <p>After {@link Builder#start()} the client configuration is in {@link #confDir()}
 * (yarn-site.xml, core-site.xml: usable as HADOOP_CONF_DIR for {@code spark-submit --master yarn});
 * {@link SparkOnYarn} runs applications on it. Always {@link #close()} it (containers are killed,
 * the NM's shuffle port is released).
 */
public final class MiniYarn implements AutoCloseable {
  /**
   * The aux service name Spark's executors look for ({@code spark.shuffle.service.name}'s default).
   */
  public static final String SHUFFLE_SERVICE = "spark_shuffle";

  /** Spark's stock shuffle service class. */
  public static final String SPARK_YARN_SHUFFLE_SERVICE =
      "org.apache.spark.network.yarn.YarnShuffleService";

  /**
   * Spark's merge manager for push-based shuffle (the ESS side of {@code
   * spark.shuffle.push.enabled}).
   */
  public static final String PUSH_MERGE_MANAGER =
      "org.apache.spark.network.shuffle.RemoteBlockPushResolver";

  public static final String MERGE_MANAGER_KEY =
      "spark.shuffle.push.server.mergedShuffleFileManagerImpl";
  private static final String AUX = "yarn.nodemanager.aux-services." + SHUFFLE_SERVICE;

  private final MiniYARNCluster cluster;
  private final Path workDir;
  private final Path confDir;
  private final int shufflePort;
  private YarnClient client;

  private MiniYarn(MiniYARNCluster cluster, Path workDir, Path confDir, int shufflePort) {
    this.cluster = cluster;
    this.workDir = workDir;
    this.confDir = confDir;
    this.shufflePort = shufflePort;
  }

  /**
   * @param name cluster name (MiniYARNCluster keeps its dirs under target/<name>) @param workDir
   *     for conf, logs, jobs
   */
  public static Builder builder(String name, Path workDir) {
    return new Builder(name, workDir);
  }

  /** The directory holding yarn-site.xml and core-site.xml: HADOOP_CONF_DIR for clients. */
  public Path confDir() {
    return confDir;
  }

  public Path workDir() {
    return workDir;
  }

  /**
   * The port the NM's shuffle service listens on ({@code spark.shuffle.service.port}; give it to
   * applications).
   */
  public int shufflePort() {
    return shufflePort;
  }

  /** The cluster's live configuration (actual RM addresses). */
  public Configuration config() {
    return cluster.getConfig();
  }

  /** The RM's REST/web base URL, e.g. {@code http://vm:41234}. */
  public String rmWebUrl() {
    return WebAppUtils.getRMWebAppURLWithScheme(cluster.getConfig());
  }

  public NodeManager nodeManager() {
    return cluster.getNodeManager(0);
  }

  public MiniYARNCluster cluster() {
    return cluster;
  }

  /**
   * The NM's aux services (the NM's own dispatch into the shuffle service: init/stop application).
   */
  public AuxServices auxServices() {
    return nodeManager().getNMContext().getAuxServices();
  }

  /** Whether the NM has the shuffle service registered (it drops a service whose init failed). */
  public boolean shuffleServiceRegistered() {
    return auxServiceRegistered(SHUFFLE_SERVICE);
  }

  /** Whether the NM has the aux service {@code name} registered. */
  public boolean auxServiceRegistered(String name) {
    return auxServices().getMetaData().containsKey(name);
  }

  /**
   * The container log files named {@code fileName} (e.g. {@code stdout}, {@code stderr}) of {@code
   * appId} in the NM's log dirs, AM container first (they are kept after the application ends).
   */
  public List<Path> containerLogs(String appId, String fileName) throws IOException {
    List<Path> found = new ArrayList<>();
    for (String dir : nodeManager().getConfig().getTrimmedStrings(YarnConfiguration.NM_LOG_DIRS)) {
      Path appDir = Path.of(dir).resolve(appId);
      if (Files.isDirectory(appDir)) {
        try (Stream<Path> s = Files.walk(appDir, 2)) {
          s.filter(f -> f.getFileName().toString().equals(fileName)).sorted().forEach(found::add);
        }
      }
    }
    return found;
  }

  /** Whether any container of {@code appId} wrote {@code text} to its {@code fileName} log. */
  public boolean containerLogContains(String appId, String fileName, String text)
      throws IOException {
    for (Path f : containerLogs(appId, fileName)) {
      if (Files.readString(f).contains(text)) {
        return true;
      }
    }
    return false;
  }

  /** A YARN client of this cluster (created once, closed with the cluster). */
  public synchronized YarnClient client() {
    if (client == null) {
      client = YarnClient.createYarnClient();
      client.init(new YarnConfiguration(cluster.getConfig()));
      client.start();
    }
    return client;
  }

  public ApplicationReport report(String appId) throws Exception {
    return client().getApplicationReport(ApplicationId.fromString(appId));
  }

  @Override
  public void close() {
    try {
      if (client != null) {
        client.stop();
      }
    } finally {
      cluster.stop();
    }
  }

  /** How to build the cluster. */
  public static final class Builder {
    private final String name;
    private final Path workDir;
    private String serviceClass = SPARK_YARN_SHUFFLE_SERVICE;
    private final List<Path> auxClasspath = new ArrayList<>();
    private final Map<String, String> conf = new LinkedHashMap<>();
    private final Map<String, Integer> queues = new LinkedHashMap<>();
    private final List<String[]> extraServices = new ArrayList<>();
    private final Map<String, Map<String, String>> overlays = new LinkedHashMap<>();
    private final Map<String, List<Path>> extraClasspaths = new LinkedHashMap<>();

    private Builder(String name, Path workDir) {
      this.name = Objects.requireNonNull(name);
      this.workDir = workDir.toAbsolutePath();
    }

    /** The aux service class (Spark's YarnShuffleService or a subclass). */
    public Builder shuffleService(String className) {
      this.serviceClass = className;
      return this;
    }

    /**
     * Load the shuffle service from these entries in an isolated class loader instead of the NM's
     * classpath. A directory of jars is added as {@code dir/*}, any other directory (compiled
     * classes) or jar as itself. Hadoop and slf4j always come from the NM.
     */
    public Builder auxClasspath(List<Path> entries) {
      auxClasspath.addAll(entries);
      return this;
    }

    /**
     * Any NM/RM configuration key (loaded as a resource, like yarn-site.xml; it wins over the
     * harness's defaults). The shuffle service reads its settings (spark.shuffle.*,
     * spark.sluice.throttle.*, ...) from here too.
     */
    public Builder conf(String key, String value) {
      conf.put(key, value);
      return this;
    }

    /**
     * A second shuffle service in the same NodeManager under another aux-service name (applications
     * pick it with {@code spark.shuffle.service.name} and {@code spark.shuffle.service.port}). It
     * is always loaded in its own class loader from {@code classpath}; {@code overlay} becomes its
     * {@code spark-shuffle-site.xml} (Spark's per-service configuration overlay), which must at
     * least give it its own {@code spark.shuffle.service.port}.
     */
    public Builder extraShuffleService(
        String serviceName, String className, List<Path> classpath, Map<String, String> overlay) {
      if (classpath.isEmpty()) {
        throw new IllegalArgumentException("an extra shuffle service needs its own classpath");
      }
      extraServices.add(new String[] {serviceName, className});
      overlays.put(serviceName, new LinkedHashMap<>(overlay));
      extraClasspaths.put(serviceName, List.copyOf(classpath));
      return this;
    }

    /** The NM's shuffle service runs Spark's merge manager (push-based shuffle). */
    public Builder pushMergeManager() {
      return conf(MERGE_MANAGER_KEY, PUSH_MERGE_MANAGER);
    }

    /**
     * Capacity-scheduler leaf queues under root with their capacity in percent (must sum to 100).
     */
    public Builder queue(String name, int capacityPercent) {
      queues.put(name, capacityPercent);
      return this;
    }

    public MiniYarn start() throws IOException {
      Files.createDirectories(workDir);
      Path confDir = Files.createDirectories(workDir.resolve("hadoop-conf"));
      int port = freeLoopbackPort();

      YarnConfiguration c = new YarnConfiguration();
      c.set("hadoop.tmp.dir", workDir.resolve("hadoop-tmp").toString());
      c.set("fs.defaultFS", "file:///");
      // containers: small ones, no memory policing, Java from this JVM, logs kept for reading after
      // the run
      c.setInt(YarnConfiguration.RM_SCHEDULER_MINIMUM_ALLOCATION_MB, 128);
      // MiniYARNCluster fixes the NM's memory at 4096 MB whatever is configured
      c.setInt(YarnConfiguration.RM_SCHEDULER_MAXIMUM_ALLOCATION_MB, 4096);
      c.setInt(YarnConfiguration.NM_VCORES, 8);
      c.setBoolean(YarnConfiguration.NM_PMEM_CHECK_ENABLED, false);
      c.setBoolean(YarnConfiguration.NM_VMEM_CHECK_ENABLED, false);
      c.set(YarnConfiguration.NM_ADMIN_USER_ENV, "JAVA_HOME=" + System.getProperty("java.home"));
      c.setFloat(YarnConfiguration.NM_MAX_PER_DISK_UTILIZATION_PERCENTAGE, 100.0f);
      c.setLong(YarnConfiguration.DEBUG_NM_DELETE_DELAY_SEC, 3600);
      c.setInt(YarnConfiguration.MAX_CLUSTER_LEVEL_APPLICATION_PRIORITY, 10);
      c.setFloat("yarn.scheduler.capacity.maximum-am-resource-percent", 0.8f);
      c.setInt(YarnConfiguration.RM_NM_HEARTBEAT_INTERVAL_MS, 250);
      if (!queues.isEmpty()) {
        c.set("yarn.scheduler.capacity.root.queues", String.join(",", queues.keySet()));
        queues.forEach(
            (q, pct) -> {
              c.setInt("yarn.scheduler.capacity.root." + q + ".capacity", pct);
              c.setInt("yarn.scheduler.capacity.root." + q + ".maximum-capacity", 100);
            });
      }
      // the shuffle service
      List<String> names = new ArrayList<>(List.of(SHUFFLE_SERVICE));
      c.set(AUX + ".class", serviceClass);
      if (!auxClasspath.isEmpty()) {
        c.set(AUX + ".classpath", hadoopClasspath(auxClasspath));
      }
      for (String[] extra : extraServices) {
        String key = "yarn.nodemanager.aux-services." + extra[0];
        Path overlayDir = Files.createDirectories(workDir.resolve("aux-" + extra[0]));
        Configuration overlay = new Configuration(false);
        overlays.get(extra[0]).forEach(overlay::set);
        try (OutputStream out =
            Files.newOutputStream(overlayDir.resolve("spark-shuffle-site.xml"))) {
          overlay.writeXml(out);
        }
        List<Path> cp = new ArrayList<>(List.of(overlayDir));
        cp.addAll(extraClasspaths.get(extra[0]));
        c.set(key + ".class", extra[1]);
        c.set(key + ".classpath", hadoopClasspath(cp));
        names.add(extra[0]);
      }
      c.set(YarnConfiguration.NM_AUX_SERVICES, String.join(",", names));
      // The shuffle service settings go in as a configuration *resource*, as yarn-site.xml does on
      // a real NM: values
      // set programmatically would override every service's spark-shuffle-site.xml overlay.
      Configuration site = new Configuration(false);
      site.setInt("spark.shuffle.service.port", port);
      conf.forEach(site::set);
      Path sitePath = workDir.resolve("nm-site.xml");
      try (OutputStream out = Files.newOutputStream(sitePath)) {
        site.writeXml(out);
      }
      conf.keySet().forEach(c::unset); // a caller's value beats the harness default set above
      c.addResource(new org.apache.hadoop.fs.Path(sitePath.toUri()));

      MiniYARNCluster cluster = new MiniYARNCluster(name, 1, 1, 1);
      boolean started = false;
      try {
        cluster.init(c);
        cluster.start();
        if (cluster.getServiceState() != Service.STATE.STARTED) {
          throw new IllegalStateException(
              "MiniYARNCluster did not start: " + cluster.getServiceState());
        }
        if (!cluster.waitForNodeManagersToConnect(30_000)) {
          throw new IllegalStateException(
              "the NodeManager did not register with the RM within 30 s");
        }
        giveGuiceToTheResourceManager(cluster);
        writeClientConf(cluster.getConfig(), confDir);
        started = true;
        return new MiniYarn(cluster, workDir, confDir, port);
      } catch (IOException | RuntimeException e) {
        throw e;
      } catch (Exception e) {
        throw new IllegalStateException("starting MiniYARNCluster " + name, e);
      } finally {
        if (!started) {
          cluster.stop();
        }
      }
    }
  }

  /**
   * RM and NM in one JVM share Guice's static servlet pipeline, and the NM, started last, takes it:
   * the RM's port then answers with the NM's REST API ({@code /ws/v1/cluster/...} is a 404). Points
   * the shared pipeline back at the RM's own (the one its web app's GuiceFilter was built with), so
   * the RM REST API works; the NM's web pages and REST API are the ones left without it (nothing
   * here uses them).
   */
  private static void giveGuiceToTheResourceManager(MiniYARNCluster cluster)
      throws ReflectiveOperationException {
    Object webApp =
        field(org.apache.hadoop.yarn.server.resourcemanager.ResourceManager.class, "webApp")
            .get(cluster.getResourceManager());
    Object filter = field(org.apache.hadoop.yarn.webapp.WebApp.class, "guiceFilter").get(webApp);
    Object rmPipeline =
        field(com.google.inject.servlet.GuiceFilter.class, "injectedPipeline").get(filter);
    if (rmPipeline == null) {
      throw new IllegalStateException("the RM's GuiceFilter has no pipeline of its own");
    }
    field(com.google.inject.servlet.GuiceFilter.class, "pipeline").set(null, rmPipeline);
  }

  private static java.lang.reflect.Field field(Class<?> owner, String name)
      throws NoSuchFieldException {
    java.lang.reflect.Field f = owner.getDeclaredField(name);
    f.setAccessible(true);
    return f;
  }

  /** Hadoop aux-service classpath string: directories of jars become {@code dir/*}. */
  static String hadoopClasspath(List<Path> entries) throws IOException {
    List<String> parts = new ArrayList<>();
    for (Path p : entries) {
      Path a = p.toAbsolutePath();
      if (!Files.exists(a)) {
        throw new IllegalArgumentException("aux classpath entry does not exist: " + a);
      }
      boolean jarDir;
      try (Stream<Path> s = Files.isDirectory(a) ? Files.list(a) : Stream.empty()) {
        jarDir = s.anyMatch(f -> f.getFileName().toString().endsWith(".jar"));
      }
      parts.add(jarDir ? a + File.separator + "*" : a.toString());
    }
    return parts.stream().collect(Collectors.joining(File.pathSeparator));
  }

  private static void writeClientConf(Configuration live, Path confDir) throws IOException {
    try (OutputStream out = Files.newOutputStream(confDir.resolve("yarn-site.xml"))) {
      live.writeXml(out);
    }
    Configuration core = new Configuration(false);
    core.set("fs.defaultFS", "file:///");
    try (OutputStream out = Files.newOutputStream(confDir.resolve("core-site.xml"))) {
      core.writeXml(out);
    }
  }

  static int freeLoopbackPort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }
}
