package io.sluice.ingest.parse;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.io.JsonEOFException;
import com.fasterxml.jackson.core.io.SerializedString;
import java.io.IOException;

/**
 * The fields of one kind of JSON object that the parser reads, in the order Spark writes them, so
 * that the next field name can be checked against the expected one byte by byte ({@link
 * JsonParser#nextFieldName(com.fasterxml.jackson.core.SerializableString)}) instead of being hashed
 * and looked up: on the hot path (task ends) the names cost more than the values. Any other order,
 * and fields not listed, are still read, only more slowly. Immutable and thread-safe.
 */
final class FieldOrder {
  private final SerializedString[] names;

  FieldOrder(String... names) {
    this.names = new SerializedString[names.length];
    for (int i = 0; i < names.length; i++) {
      this.names[i] = new SerializedString(names[i]);
    }
  }

  /** A pass over the fields of the object {@code p} is in, from its first field on. */
  Cursor over(JsonParser p) {
    return new Cursor(p);
  }

  /** One pass over one object's fields; it keeps the position of the field it expects next. */
  final class Cursor {
    private final JsonParser p;
    private int at;

    private Cursor(JsonParser p) {
      this.p = p;
    }

    /**
     * Advances to the next field and then onto its value; skips a repeated "Event". Returns the
     * name, or null at the object's end.
     */
    String next() throws IOException {
      String field = FieldOrder.this.next(p, at);
      if (field != null) {
        at = after(field, at);
      }
      return field;
    }
  }

  /**
   * Advances to the next field of the current object and then onto its value, expecting the field
   * at position {@code at}; skips a repeated "Event". Returns the name (the listed instance when it
   * was the expected one), or null at the object's end.
   */
  String next(JsonParser p, int at) throws IOException {
    while (true) {
      JsonToken t;
      String field;
      if (at < names.length && p.nextFieldName(names[at])) {
        field = names[at].getValue();
      } else {
        t = at < names.length ? p.currentToken() : p.nextToken();
        if (t != JsonToken.FIELD_NAME) {
          if (t == null) {
            throw new JsonEOFException(p, null, "end of input inside an object");
          }
          return null;
        }
        field = p.currentName();
      }
      p.nextToken();
      if (!"Event".equals(field)) {
        return field;
      }
      p.skipChildren();
    }
  }

  /** The names, in order. */
  String[] names() {
    String[] out = new String[names.length];
    for (int i = 0; i < names.length; i++) {
      out[i] = names[i].getValue();
    }
    return out;
  }

  /** The position to expect after {@code field}: the one following it, else {@code at} again. */
  int after(String field, int at) {
    if (at < names.length && names[at].getValue().equals(field)) {
      return at + 1;
    }
    for (int i = 0; i < names.length; i++) {
      if (names[i].getValue().equals(field)) {
        return i + 1;
      }
    }
    return at;
  }
}
