package io.sluice.throttle.yarn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.throttle.gate.AppInfo;
import java.io.IOException;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The RM answer's parsing (the live RM is queried in SluiceYarnShuffleServiceITCase). */
class YarnRmPrioritySourceTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static Map<String, AppInfo> parse(String json) throws IOException {
    return YarnRmPrioritySource.parse(JSON.readTree(json));
  }

  @Test
  void appsWithPriorityAndQueue() throws IOException {
    Map<String, AppInfo> m =
        parse(
            """
        {"apps":{"app":[
          {"id":"application_1_0001","queue":"etl","priority":7,"state":"RUNNING","user":"a"},
          {"id":"application_1_0002","queue":"root.adhoc","priority":0,"state":"ACCEPTED"},
          {"id":"application_1_0003","state":"RUNNING"}]}}""");
    assertThat(m)
        .containsExactly(
            Map.entry("application_1_0001", new AppInfo("application_1_0001", 7, "etl", false)),
            Map.entry(
                "application_1_0002", new AppInfo("application_1_0002", 0, "root.adhoc", false)),
            Map.entry("application_1_0003", new AppInfo("application_1_0003", 0, null, false)));
  }

  @Test
  void noApplicationsIsAnEmptySnapshot() throws IOException {
    assertThat(parse("{\"apps\":null}")).isEmpty();
    assertThat(parse("{\"apps\":{}}")).isEmpty();
  }

  @Test
  void somethingElseIsAnError() {
    assertThatThrownBy(() -> parse("{\"RemoteException\":{\"message\":\"x\"}}"))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("apps");
    assertThatThrownBy(() -> parse("{\"apps\":{\"app\":[{\"queue\":\"q\"}]}}"))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("id");
  }

  @Test
  void queriesRunningAndAcceptedAppsUnderTheBaseUrl() {
    assertThat(new YarnRmPrioritySource("http://rm:8088/", java.time.Duration.ofSeconds(1)).uri())
        .hasToString("http://rm:8088/ws/v1/cluster/apps?states=RUNNING,ACCEPTED");
  }
}
