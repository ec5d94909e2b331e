package io.sluice.ingest.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class FieldOrderTest {
  private static final FieldOrder ORDER = new FieldOrder("a", "b", "c");

  /** Every field read with its value's text, "name=value", and which were the expected ones. */
  private static List<String> read(String json) throws IOException {
    List<String> out = new ArrayList<>();
    try (JsonParser p = new JsonFactory().createParser(json.getBytes(StandardCharsets.UTF_8))) {
      assertEquals(JsonToken.START_OBJECT, p.nextToken());
      FieldOrder.Cursor fields = ORDER.over(p);
      for (String f = fields.next(); f != null; f = fields.next()) {
        out.add(f + "=" + (p.currentToken().isScalarValue() ? p.getText() : p.currentToken()));
        p.skipChildren();
      }
      assertEquals(JsonToken.END_OBJECT, p.currentToken());
    }
    return out;
  }

  @Test
  void readsFieldsInTheExpectedOrder() throws IOException {
    assertEquals(List.of("a=1", "b=x", "c=3"), read("{\"a\":1,\"b\":\"x\",\"c\":3}"));
  }

  @Test
  void readsAnyOtherOrderAndUnlistedFieldsAlike() throws IOException {
    assertEquals(
        List.of("c=3", "zz=START_OBJECT", "a=1", "b=2", "d=4"),
        read("{\"c\":3,\"zz\":{\"a\":9},\"a\":1,\"b\":2,\"d\":4}"));
    assertEquals(List.of("b=2"), read("{\"b\":2}"));
    assertEquals(List.of(), read("{}"));
  }

  @Test
  void aPrefixOfTheExpectedNameIsNotTakenForIt() throws IOException {
    assertEquals(List.of("ab=1", "a=2", "bc=3"), read("{\"ab\":1,\"a\":2,\"bc\":3}"));
  }

  @Test
  void skipsARepeatedEventField() throws IOException {
    assertEquals(List.of("a=1", "b=2"), read("{\"a\":1,\"Event\":\"X\",\"b\":2}"));
  }

  @Test
  void truncatedObjectIsAnError() {
    assertThrows(JsonProcessingException.class, () -> read("{\"a\":1,"));
  }

  @Test
  void positionAfterAField() {
    assertEquals(1, ORDER.after("a", 0));
    assertEquals(3, ORDER.after("c", 0));
    assertEquals(2, ORDER.after("zz", 2));
    assertEquals(List.of("a", "b", "c"), List.of(ORDER.names()));
  }
}
