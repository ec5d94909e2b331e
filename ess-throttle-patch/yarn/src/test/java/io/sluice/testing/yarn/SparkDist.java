package io.sluice.testing.yarn;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * The pyspark distribution the harness runs applications with ({@code deploy/bin/install-spark.sh}
 * installs it under {@code .sluice/spark/<version>/pyspark}). The repository root comes from the
 * {@code sluice.root} system property that the build sets for tests.
 */
public final class SparkDist {
  public static final String DEFAULT_VERSION = "3.5.7";

  private final Path home;

  private SparkDist(Path home) {
    this.home = home;
  }

  /**
   * The installed distribution of {@code version}; fails (never skips) with the command that
   * installs it.
   */
  public static SparkDist installed(String version) {
    Path home = sluiceRoot().resolve(".sluice/spark").resolve(version).resolve("pyspark");
    if (!Files.isExecutable(home.resolve("bin/spark-submit"))
        || !Files.isDirectory(home.resolve("jars"))) {
      throw new IllegalStateException(
          "pyspark "
              + version
              + " is not installed at "
              + home
              + ": run deploy/bin/install-spark.sh "
              + version);
    }
    return new SparkDist(home);
  }

  public static SparkDist installed() {
    return installed(DEFAULT_VERSION);
  }

  public static Path sluiceRoot() {
    String root = System.getProperty("sluice.root");
    if (root == null || root.isBlank()) {
      throw new IllegalStateException(
          "system property sluice.root (the repository root) is not set");
    }
    return Paths.get(root).toAbsolutePath().normalize();
  }

  public Path home() {
    return home;
  }

  public Path jars() {
    return home.resolve("jars");
  }

  public Path sparkSubmit() {
    return home.resolve("bin/spark-submit");
  }

  /**
   * {@code spark.yarn.jars} value that makes containers use the jars in place (nothing uploaded).
   */
  public String yarnJarsLocal() {
    return "local:" + jars() + "/*";
  }
}
