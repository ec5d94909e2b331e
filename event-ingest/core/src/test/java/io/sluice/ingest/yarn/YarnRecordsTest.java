package io.sluice.ingest.yarn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.model.Json;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class YarnRecordsTest {
  private static List<YarnAppRecord> rm(String json) throws IOException {
    return RmAppsJson.parse(
        new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8)), "prod", 99);
  }

  @Test
  void parsesRmAppsJson() throws IOException {
    List<YarnAppRecord> apps =
        rm(
            "{\"apps\":{\"app\":[{\"id\":\"application_1_0001\",\"user\":\"alice\","
                + "\"name\":\"daily, sales\",\"queue\":\"root.etl\",\"state\":\"FINISHED\",\"finalStatus\":\"SUCCEEDED\","
                + "\"progress\":100.0,\"trackingUI\":\"History\",\"applicationType\":\"SPARK\","
                + "\"applicationTags\":\"a,b ,sluice\",\"priority\":3,\"startedTime\":1000,\"launchTime\":1001,"
                + "\"finishedTime\":5000,\"elapsedTime\":4000,\"runningContainers\":-1,\"memorySeconds\":1234,"
                + "\"vcoreSeconds\":56,\"resourceInfo\":{\"x\":1}},"
                + "{\"id\":\"application_1_0002\",\"state\":\"RUNNING\",\"finalStatus\":\"UNDEFINED\"},{\"name\":\"no id\"}]}}");
    assertThat(apps)
        .containsExactly(
            new YarnAppRecord(
                "prod",
                "application_1_0001",
                "daily, sales",
                "alice",
                "root.etl",
                3,
                "SPARK",
                List.of("a", "b", "sluice"),
                "FINISHED",
                "SUCCEEDED",
                1000,
                5000,
                0,
                1234,
                56,
                99),
            new YarnAppRecord(
                "prod",
                "application_1_0002",
                null,
                null,
                null,
                null,
                null,
                List.of(),
                "RUNNING",
                "UNDEFINED",
                0,
                0,
                0,
                0,
                0,
                99));
    assertThat(apps.get(0).ended()).isTrue();
    assertThat(apps.get(1).ended()).isFalse();
  }

  @Test
  void emptyAndBadRmAnswers() throws IOException {
    assertThat(rm("{\"apps\":null}")).isEmpty();
    assertThat(rm("{\"apps\":{}}")).isEmpty();
    assertThatThrownBy(() -> rm("<html>proxy error</html>"))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("not JSON");
    assertThatThrownBy(() -> rm("{\"clusterInfo\":{}}"))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("\"apps\"");
  }

  @Test
  void recordSerialisesWithTheTopicFieldNames() {
    YarnAppRecord r =
        new YarnAppRecord(
            "c",
            "application_1_0001",
            "n",
            "u",
            "q",
            1,
            "SPARK",
            List.of("t"),
            "FINISHED",
            "FAILED",
            1,
            2,
            2,
            3,
            4,
            5);
    String json = Json.write(r);
    assertThat(json)
        .isEqualTo(
            "{\"cluster\":\"c\",\"appId\":\"application_1_0001\",\"name\":\"n\",\"user\":\"u\","
                + "\"queue\":\"q\",\"priority\":1,\"applicationType\":\"SPARK\",\"tags\":[\"t\"],\"state\":\"FINISHED\","
                + "\"finalStatus\":\"FAILED\",\"startedTime\":1,\"finishedTime\":2,\"attempts\":2,\"memorySeconds\":3,"
                + "\"vcoreSeconds\":4,\"observedAt\":5}");
    assertThat(Json.read(json, YarnAppRecord.class)).isEqualTo(r);
  }

  @Test
  void parsesApplicationSummaryLines() {
    String line =
        "2026-11-21 10:00:00,123 INFO org.apache.hadoop.yarn.server.resourcemanager.RMAppManager$"
            + "ApplicationSummary: appId=application_1700000000000_0042,name=daily\\, sales \\\\ eu,user=alice,"
            + "queue=root.etl,state=FINISHED,trackingUrl=http://rm:8088/proxy/application_1700000000000_0042/,"
            + "appMasterHost=node1,submitTime=1000,startTime=1100,launchTime=1200,finishTime=9000,"
            + "finalStatus=SUCCEEDED,memorySeconds=777,vcoreSeconds=88,preemptedMemorySeconds=0,"
            + "preemptedVcoreSeconds=0,preemptedAMContainers=0,preemptedNonAMContainers=0,"
            + "preemptedResources=<memory:0\\, vCores:0>,applicationType=SPARK,resourceSeconds=777 MB-seconds\\, 88 "
            + "vcore-seconds,applicationTags=x\\,y,applicationNodeLabel=,diagnostics=";
    Optional<YarnAppRecord> r = AppSummaryLine.parse(line, "prod");
    assertThat(r)
        .contains(
            new YarnAppRecord(
                "prod",
                "application_1700000000000_0042",
                "daily, sales \\ eu",
                "alice",
                "root.etl",
                null,
                "SPARK",
                List.of("x", "y"),
                "FINISHED",
                "SUCCEEDED",
                1100,
                9000,
                0,
                777,
                88,
                9000));
    // an older Hadoop with fewer fields and unknown extras
    assertThat(
            AppSummaryLine.parse(
                "ApplicationSummary: appId=application_1_0001,name=a,user=u,queue=default,"
                    + "state=KILLED,finalStatus=KILLED,newField=1,priority=5",
                "c",
                123))
        .contains(
            new YarnAppRecord(
                "c",
                "application_1_0001",
                "a",
                "u",
                "default",
                5,
                null,
                List.of(),
                "KILLED",
                "KILLED",
                0,
                0,
                0,
                0,
                0,
                123));
    assertThat(AppSummaryLine.parse("INFO some other log line", "c")).isEmpty();
    assertThat(AppSummaryLine.parse("ApplicationSummary: appId=,name=x", "c")).isEmpty();
    assertThat(AppSummaryLine.parse(null, "c")).isEmpty();
  }
}
