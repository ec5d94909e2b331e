package io.sluice.bench.tuner;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * The options the benches that start tuner-service take (a picocli mixin): the service's boot jar,
 * the repository its fixtures come from, and the directory for the store and the logs.
 */
public final class ServiceBenchOptions {
  /** An option that switches part of a bench on or off. */
  public enum OnOff {
    on,
    off
  }

  @Option(names = "--service-jar", required = true, description = "tuner-service boot jar.")
  public Path jar;

  @Option(names = "--root", required = true, description = "The repository (for the fixtures).")
  public Path root;

  @Option(names = "--work", required = true, description = "Directory for the store and logs.")
  public Path work;

  /** The work directory, created if missing. */
  public Path workDir() throws IOException {
    return Files.createDirectories(work);
  }
}
