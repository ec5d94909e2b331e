package io.sluice.tuner.ui;

import io.sluice.tuner.api.BadRequest;
import java.time.Duration;

/**
 * The [from, to) window of a UI read, epoch ms; by default the last {@link #DEFAULT_SPAN} up to
 * now.
 */
record Period(long from, long to) {
  static final Duration DEFAULT_SPAN = Duration.ofDays(7);

  /** The window the parameters name; a 400 naming the parameter when it is empty or reversed. */
  static Period of(Long from, Long to, long nowMs) {
    long end = to == null ? nowMs : to;
    long start = from == null ? end - DEFAULT_SPAN.toMillis() : from;
    if (start < 0) {
      throw new BadRequest("from", "from=" + start + " must be 0 or more (epoch ms)");
    }
    if (start >= end) {
      throw new BadRequest("from", "from=" + start + " must be before to=" + end + " (epoch ms)");
    }
    return new Period(start, end);
  }
}
