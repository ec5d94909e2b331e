package io.sluice.store;

/**
 * A page of raw gate events, newest first: optional cluster, node and type (null = any) in [from,
 * to).
 */
public record GateEventQuery(
    String cluster, String node, String type, long from, long to, int page, int size) {
  public GateEventQuery {
    if (page < 0) {
      throw new IllegalArgumentException("page=" + page + " must be 0 or more");
    }
    if (size < 1 || size > JobQuery.MAX_SIZE) {
      throw new IllegalArgumentException("size=" + size + " must be in 1.." + JobQuery.MAX_SIZE);
    }
  }

  long offset() {
    return (long) page * size;
  }
}
