package io.sluice.submit.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.rules.AllowList;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The optional {@code platform} field is read leniently: garbage is ignored and never rejects the
 * answer.
 */
class PlatformParsingTest {
  private static final String HEAD =
      "{\"submissionId\":\"s1\",\"jobKey\":\"k\",\"state\":\"NEW\","
          + "\"overlay\":{\"spark.sql.adaptive.enabled\":\"true\"}";
  private final ResponseParser parser = new ResponseParser(AllowList.defaults());

  private Advice parse(String json) throws Exception {
    return parser.parse(json.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void platformAdditionsAreParsedAndBypassTheAllowList() throws Exception {
    Advice a =
        parse(
            HEAD
                + ",\"platform\":{\"confs\":{\"spark.sluice.throttle.shim\":\"true\","
                + "\"spark.executor.extraJavaOptions\":\"-Dx=1\"},\"jars\":[\"/opt/shim.jar\",\"/opt/shim.jar\"],"
                + "\"plugins\":[\"io.sluice.throttle.shim.SluiceShimPlugin\"],\"reasons\":[\"queue etl opted in\"]}}");
    assertThat(a.platform().confs())
        .containsExactly(
            Map.entry("spark.sluice.throttle.shim", "true"),
            Map.entry("spark.executor.extraJavaOptions", "-Dx=1"));
    assertThat(a.platform().jars()).containsExactly("/opt/shim.jar");
    assertThat(a.platform().plugins()).containsExactly("io.sluice.throttle.shim.SluiceShimPlugin");
    assertThat(a.platform().reasons()).containsExactly("queue etl opted in");
    assertThat(a.overlay()).containsOnlyKeys("spark.sql.adaptive.enabled");
    assertThat(a.dropped()).isEmpty();
  }

  @Test
  void absentPlatformIsNone() throws Exception {
    assertThat(parse(HEAD + "}").platform()).isSameAs(Advice.Platform.NONE);
    assertThat(parse(HEAD + ",\"platform\":null}").platform()).isSameAs(Advice.Platform.NONE);
  }

  @ParameterizedTest
  @ValueSource(strings = {"7", "\"x\"", "[1]", "true"})
  void aPlatformThatIsNotAnObjectIsIgnored(String platform) throws Exception {
    Advice a = parse(HEAD + ",\"platform\":" + platform + "}");
    assertThat(a.platform()).isSameAs(Advice.Platform.NONE);
    assertThat(a.overlay()).containsOnlyKeys("spark.sql.adaptive.enabled");
    assertThat(a.dropped()).containsExactly("platform is not an object; ignored");
  }

  @Test
  void badEntriesAreDroppedOneByOneAndGoodOnesKept() throws Exception {
    Advice a =
        parse(
            HEAD
                + ",\"platform\":{\"confs\":{\"spark.ok\":\"1\",\"spark.num\":7,\"not.spark\":\"x\","
                + "\"spark.jars\":\"/x.jar\",\"spark.plugins\":\"a.B\",\"spark.multi\":\"a\\nb\",\"spark.blank\":\" \","
                + "\"spark.sp ace\":\"v\"},"
                + "\"jars\":[\"/ok.jar\",\"/a.jar,/b.jar\",\"/with space.jar\",3,null],"
                + "\"plugins\":[\"a.Good\",\"not a class\",\"1Bad\",{}],\"reasons\":\"nope\"}}");
    assertThat(a.platform().confs()).containsExactly(Map.entry("spark.ok", "1"));
    assertThat(a.platform().jars()).containsExactly("/ok.jar");
    assertThat(a.platform().plugins()).containsExactly("a.Good");
    assertThat(a.platform().reasons()).isEmpty();
    assertThat(a.dropped()).hasSize(7 + 4 + 3 + 1);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "{\"confs\":[]}",
        "{\"jars\":{}}",
        "{\"plugins\":\"a.B\"}",
        "{\"confs\":\"x\"}",
        "{}"
      })
  void wrongTypesInsidePlatformLeaveNothingAndNeverFail(String platform) throws Exception {
    Advice a = parse(HEAD + ",\"platform\":" + platform + "}");
    assertThat(a.platform().isEmpty()).isTrue();
    assertThat(a.submissionId()).isEqualTo("s1");
  }
}
