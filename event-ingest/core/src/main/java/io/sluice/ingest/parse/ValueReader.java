package io.sluice.ingest.parse;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.math.BigInteger;

/**
 * Reads one typed value at the parser's current value token. A value of the wrong JSON type is
 * skipped (whole sub-tree) and reported; integers beyond the long range are clamped and reported;
 * null counts as missing. Never throws for a well-formed token stream.
 */
final class ValueReader {
  private final ParseProblems problems;

  ValueReader(ParseProblems problems) {
    this.problems = problems;
  }

  long readLong(JsonParser p, String event, String field) throws IOException {
    JsonToken t = p.currentToken();
    if (t == JsonToken.VALUE_NUMBER_INT) {
      if (p.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
        BigInteger big = p.getBigIntegerValue();
        if (big.bitLength() > 63) {
          problems.clampedNumber(event, field);
          return big.signum() > 0 ? Long.MAX_VALUE : Long.MIN_VALUE;
        }
        return big.longValue();
      }
      return p.getLongValue();
    }
    if (t == JsonToken.VALUE_NULL) {
      problems.missingField(event, field);
      return 0;
    }
    wrong(p, event, field);
    return 0;
  }

  int readInt(JsonParser p, String event, String field) throws IOException {
    long v = readLong(p, event, field);
    if (v > Integer.MAX_VALUE) {
      problems.clampedNumber(event, field);
      return Integer.MAX_VALUE;
    }
    if (v < Integer.MIN_VALUE) {
      problems.clampedNumber(event, field);
      return Integer.MIN_VALUE;
    }
    return (int) v;
  }

  /**
   * Like {@link #readInt} but yields {@code fallback} (after reporting) when the value is not an
   * integer.
   */
  int readIntOr(JsonParser p, String event, String field, int fallback) throws IOException {
    if (p.currentToken() != JsonToken.VALUE_NUMBER_INT) {
      readLong(p, event, field);
      return fallback;
    }
    return readInt(p, event, field);
  }

  /**
   * A string; numbers and booleans are accepted as their text. Null for JSON null or wrong types.
   */
  String readString(JsonParser p, String event, String field) throws IOException {
    JsonToken t = p.currentToken();
    if (t == JsonToken.VALUE_STRING) {
      return p.getText();
    }
    if (t == JsonToken.VALUE_NULL) {
      return null;
    }
    if (t != null && t.isScalarValue()) {
      return p.getText();
    }
    wrong(p, event, field);
    return null;
  }

  /**
   * Skips the value when it is not an object, reporting it; true when positioned at START_OBJECT.
   */
  boolean expectObject(JsonParser p, String event, String field) throws IOException {
    JsonToken t = p.currentToken();
    if (t == JsonToken.START_OBJECT) {
      return true;
    }
    if (t != JsonToken.VALUE_NULL) {
      wrong(p, event, field);
    }
    return false;
  }

  boolean expectArray(JsonParser p, String event, String field) throws IOException {
    JsonToken t = p.currentToken();
    if (t == JsonToken.START_ARRAY) {
      return true;
    }
    if (t != JsonToken.VALUE_NULL) {
      wrong(p, event, field);
    }
    return false;
  }

  void missing(String event, String field) {
    problems.missingField(event, field);
  }

  private void wrong(JsonParser p, String event, String field) throws IOException {
    problems.wrongType(event, field);
    p.skipChildren();
  }
}
