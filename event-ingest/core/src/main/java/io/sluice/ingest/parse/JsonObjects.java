package io.sluice.ingest.parse;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;

/**
 * Whether bytes hold exactly one JSON object: {@link JsonScan} first, Jackson for what the scan's
 * limits refuse.
 */
public final class JsonObjects {
  private JsonObjects() {}

  /** True when {@code b[from, to)} is one JSON object, optionally surrounded by whitespace. */
  public static boolean isOne(byte[] b, int from, int to) {
    if (JsonScan.document(b, from, to) == to) {
      int i = from;
      while (i < to && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n')) {
        i++;
      }
      return i < to && b[i] == '{';
    }
    try (JsonParser p = SparkEventParser.FACTORY.createParser(b, from, to - from)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        return false;
      }
      p.skipChildren();
      return p.nextToken() == null;
    } catch (IOException e) {
      return false;
    }
  }
}
