package io.sluice.tuner.security;

import static io.sluice.tuner.security.Redaction.REDACTED;
import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.rules.AllowList;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;

class RedactionTest {
  private final Redaction redaction =
      new Redaction(
          new Binder()
              .bindOrCreate("sluice.security", SecurityProperties.class)
              .secretKeyPatterns(),
          AllowList.defaults());
  private final Map<String, String> conf = new LinkedHashMap<>();

  {
    conf.put("spark.sql.shuffle.partitions", "50");
    conf.put("spark.app.name", "<script>x</script>");
    conf.put("spark.sluice.job.key", "etl");
    conf.put("spark.hadoop.fs.s3a.access.key", "AKIA123");
    conf.put("spark.ssl.keyStorePassword", "hunter2");
    conf.put("spark.sluice.tuner.token", "t0k");
    conf.put("spark.jdbc.url", "jdbc:x?password=abc");
  }

  private static Caller caller(Set<Role> roles, Set<String> queues) {
    return new Caller("someone", roles, queues);
  }

  @Test
  void aViewerSeesOnlyTunableKeysAndSluiceMarkersInTheConfsOrder() {
    Map<String, String> seen = redaction.conf(caller(Set.of(Role.VIEWER), Set.of()), "etl", conf);
    assertThat(seen)
        .containsExactly(
            Map.entry("spark.sql.shuffle.partitions", "50"),
            Map.entry("spark.app.name", REDACTED),
            Map.entry("spark.sluice.job.key", "etl"),
            Map.entry("spark.hadoop.fs.s3a.access.key", REDACTED),
            Map.entry("spark.ssl.keyStorePassword", REDACTED),
            Map.entry("spark.sluice.tuner.token", REDACTED),
            Map.entry("spark.jdbc.url", REDACTED));
  }

  @Test
  void anAdminAndTheQueuesOperatorSeeEveryValueButSecretsByKeyOrValue() {
    Map<String, String> expected = new LinkedHashMap<>(conf);
    expected.put("spark.hadoop.fs.s3a.access.key", REDACTED);
    expected.put("spark.ssl.keyStorePassword", REDACTED);
    expected.put("spark.sluice.tuner.token", REDACTED);
    expected.put("spark.jdbc.url", REDACTED); // the key is harmless, the value names a password
    assertThat(redaction.conf(caller(Set.of(Role.ADMIN), Set.of()), "etl", conf))
        .isEqualTo(expected);
    assertThat(redaction.conf(caller(Set.of(Role.OPERATOR), Set.of("etl")), "etl", conf))
        .isEqualTo(expected);
    assertThat(redaction.conf(caller(Set.of(Role.OPERATOR), Set.of()), "etl", conf))
        .isEqualTo(expected);
  }

  @Test
  void anOperatorOfAnotherQueueReadsItLikeAViewer() {
    Caller other = caller(Set.of(Role.OPERATOR), Set.of("adhoc"));
    assertThat(redaction.conf(other, "etl", conf))
        .isEqualTo(redaction.conf(caller(Set.of(Role.VIEWER), Set.of()), "etl", conf));
  }

  @Test
  void singleValuesFollowTheSameRuleAndAbsentStaysAbsent() {
    Caller viewer = caller(Set.of(Role.VIEWER), Set.of());
    Caller admin = caller(Set.of(Role.ADMIN), Set.of());
    assertThat(redaction.value(viewer, "etl", "spark.app.name", "x")).isEqualTo(REDACTED);
    assertThat(redaction.value(admin, "etl", "spark.app.name", "x")).isEqualTo("x");
    assertThat(redaction.value(viewer, "etl", "spark.sql.shuffle.partitions", "13"))
        .isEqualTo("13");
    assertThat(redaction.value(admin, "etl", "spark.ssl.keyStorePassword", "x"))
        .isEqualTo(REDACTED);
    assertThat(redaction.value(viewer, "etl", "spark.app.name", null)).isNull();
  }
}
