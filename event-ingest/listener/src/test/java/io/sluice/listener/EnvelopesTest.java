package io.sluice.listener;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class EnvelopesTest {

  private static final ObjectMapper M = new ObjectMapper();

  @Test
  void wrapsRawEventAndEscapesStrings() throws Exception {
    String event = "{\"Event\":\"SparkListenerJobEnd\",\"Job ID\":3,\"Completion Time\":17}";
    byte[] b = Envelopes.encode("c\"1\\\n\u0001", "app-1", null, 42, 1700000000000L, event);
    JsonNode n = M.readTree(new String(b, StandardCharsets.UTF_8));
    assertThat(n.get("cluster").asText()).isEqualTo("c\"1\\\n\u0001");
    assertThat(n.get("appId").asText()).isEqualTo("app-1");
    assertThat(n.get("appAttemptId").asText()).isEmpty();
    assertThat(n.get("seq").asLong()).isEqualTo(42);
    assertThat(n.get("emittedAt").asLong()).isEqualTo(1700000000000L);
    assertThat(n.get("event")).isEqualTo(M.readTree(event));
    // the event is embedded verbatim, not re-serialised
    assertThat(new String(b, StandardCharsets.UTF_8)).endsWith(",\"event\":" + event + "}");
  }

  @Test
  void attemptIdWhenPresent() throws Exception {
    JsonNode n = M.readTree(Envelopes.encode("c", "application_1_2", "1", 0, 1, "{}"));
    assertThat(n.get("appAttemptId").asText()).isEqualTo("1");
  }
}
