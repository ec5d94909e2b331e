package io.sluice.fallback.choice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ClassPathRestoreTest {
  private static final String JAR = "/opt/sluice/sluice-fallback-manager.jar";

  @Test
  void aPrependedClassPathGoesBackToTheUsersValueAndOneOnlySluiceAddedIsRemoved() {
    Map<String, String> conf =
        new HashMap<>(
            Map.of(
                "spark.executor.extraClassPath",
                JAR + ":/u/a.jar",
                "spark.sluice.original.spark.executor.extraClassPath",
                "/u/a.jar",
                "spark.driver.extraClassPath",
                JAR,
                "spark.sluice.platform.spark.driver.extraClassPath",
                JAR));
    Map<String, String> changes = ClassPathRestore.forFallback(conf);
    assertThat(changes)
        .containsExactly(
            entry("spark.driver.extraClassPath", null),
            entry("spark.executor.extraClassPath", "/u/a.jar"));
  }

  @Test
  void theUsersOwnValuesAndValuesChangedAfterSluiceAreLeftAlone() {
    assertThat(ClassPathRestore.forFallback(Map.of("spark.executor.extraClassPath", "/u/a.jar")))
        .isEmpty();
    assertThat(
            ClassPathRestore.forFallback(
                Map.of(
                    "spark.driver.extraClassPath",
                    "/changed.jar",
                    "spark.sluice.platform.spark.driver.extraClassPath",
                    JAR)))
        .isEmpty();
    assertThat(ClassPathRestore.forFallback(Map.of())).isEmpty();
    // already the user's value: nothing to do
    assertThat(
            ClassPathRestore.forFallback(
                Map.of(
                    "spark.driver.extraClassPath",
                    "/u.jar",
                    "spark.sluice.original.spark.driver.extraClassPath",
                    "/u.jar")))
        .isEmpty();
  }
}
