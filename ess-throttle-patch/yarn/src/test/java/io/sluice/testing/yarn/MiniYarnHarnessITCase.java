package io.sluice.testing.yarn;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The harness itself, with Spark's stock shuffle service: a cluster-mode application shuffles through the NM's ESS. */
class MiniYarnHarnessITCase {
  @TempDir
  Path tmp;

  @Test
  void clusterModeShuffleThroughStockYarnShuffleService() throws Exception {
    SparkDist spark = SparkDist.installed();
    JobJar job = JobJar.shuffleJob(spark, tmp);
    try (MiniYarn yarn = MiniYarn.builder("harness", tmp.resolve("yarn"))
        .auxClasspath(List.of(Paths.get(System.getProperty("sluice.yarn.auxClasspath"))))
        .start()) {
      assertThat(yarn.shuffleServiceRegistered()).isTrue();
      SparkOnYarn.Run run = new SparkOnYarn(yarn, spark)
          .run(SparkOnYarn.Submission.of("stock-shuffle", job, "200000", "97", "4"), Duration.ofMinutes(3));
      System.out.println(run);
      assertThat(run.succeeded()).as("%s\n%s", run, run.tail()).isTrue();
      assertThat(run.eventLog()).isNotNull();
    }
  }
}
