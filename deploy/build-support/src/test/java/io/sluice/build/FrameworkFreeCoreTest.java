package io.sluice.build;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.Test;

/**
 * The domain ({@code diagnosis-rules}), the gate core ({@code ess-throttle-patch/gate}), the
 * contracts and the setting declarations ({@code deploy/config}) run inside very different hosts
 * (Flink, Spring Boot, a Spark shuffle service, a Spark driver), so none of them may use a host's
 * framework: no Spring, Netty, Spark, Flink, Kafka, Hadoop or Scala type. The rule is checked
 * against the compiled classes of those modules, not their sources.
 */
class FrameworkFreeCoreTest {
  static final String[] FRAMEWORKS = {
    "org.springframework..",
    "io.netty..",
    "org.apache.spark..",
    "org.apache.flink..",
    "org.apache.kafka..",
    "org.apache.hadoop..",
    "scala.."
  };

  static final String[] CORE = {
    "io.sluice.model..",
    "io.sluice.rules..",
    "io.sluice.throttle.gate..",
    "io.sluice.throttle.protocol..",
    "io.sluice.config..",
    "io.sluice.contracts.."
  };

  static ArchRule noFrameworkIn(String... packages) {
    return noClasses()
        .that()
        .resideInAnyPackage(packages)
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(FRAMEWORKS)
        .because(
            "the domain, the gate core and the contracts run in every host (docs/architecture.md)");
  }

  @Test
  void theCoreImportsNoFramework() {
    JavaClasses core =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages(
                "io.sluice.model",
                "io.sluice.rules",
                "io.sluice.throttle.gate",
                "io.sluice.throttle.protocol",
                "io.sluice.config",
                "io.sluice.contracts");
    assertThat(core.containPackage("io.sluice.rules")).isTrue();
    assertThat(core.containPackage("io.sluice.throttle.gate")).isTrue();
    assertThat(core.containPackage("io.sluice.contracts")).isTrue();
    assertThat(core.containPackage("io.sluice.config")).isTrue();
    noFrameworkIn(CORE).check(core);
  }

  /** A class of this module that uses a framework type: the rule must see it. */
  static final class UsesKafka {
    org.apache.kafka.common.TopicPartition partition;
  }

  @Test
  void theRuleSeesAFrameworkType() {
    JavaClasses sample = new ClassFileImporter().importClasses(UsesKafka.class);
    assertThatThrownBy(() -> noFrameworkIn("io.sluice.build..").check(sample))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("org.apache.kafka.common.TopicPartition");
  }
}
