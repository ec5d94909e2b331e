package io.sluice.ingest.parse;

/**
 * Where the parser reports problems inside otherwise valid events: the field is dropped (or
 * clamped) and the rest of the event is kept. Implementations must be thread-safe if shared.
 */
public interface ParseProblems {
  ParseProblems IGNORE =
      new ParseProblems() {
        @Override
        public void wrongType(String event, String field) {}

        @Override
        public void missingField(String event, String field) {}

        @Override
        public void clampedNumber(String event, String field) {}
      };

  /** A field had a JSON type other than the expected one (e.g. a string where a number belongs). */
  void wrongType(String event, String field);

  /** A field the event needs was absent. */
  void missingField(String event, String field);

  /** An integer did not fit in a long (or an int) and was clamped to the nearest bound. */
  void clampedNumber(String event, String field);
}
