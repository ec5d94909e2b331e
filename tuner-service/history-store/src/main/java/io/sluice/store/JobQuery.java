package io.sluice.store;

import java.util.Locale;
import java.util.Set;

/**
 * A page of the job index: optional filters ({@code q} a case-insensitive substring of the job key;
 * the others exact values; null or blank means no filter), the sort column, its direction and the
 * page. Validated on creation: the message names the offending parameter and value.
 */
public record JobQuery(
    String q,
    String cluster,
    String queue,
    String user,
    String state,
    String severity,
    String sort,
    boolean descending,
    int page,
    int size) {
  /** The default page size. */
  public static final int DEFAULT_SIZE = 50;

  /** The largest page size. */
  public static final int MAX_SIZE = 200;

  /** The sortable columns, by the name the API uses. */
  public static final Set<String> SORTS = Set.of("lastRun", "jobKey", "runs", "wallMs");

  public JobQuery {
    q = blankToNull(q);
    cluster = blankToNull(cluster);
    queue = blankToNull(queue);
    user = blankToNull(user);
    state = blankToNull(state);
    severity = blankToNull(severity) == null ? null : severity.trim().toUpperCase(Locale.ROOT);
    sort = blankToNull(sort) == null ? "lastRun" : sort.trim();
    if (!SORTS.contains(sort)) {
      throw new IllegalArgumentException(
          "sort=" + sort + " is not one of " + new java.util.TreeSet<>(SORTS));
    }
    if (page < 0) {
      throw new IllegalArgumentException("page=" + page + " must be 0 or more");
    }
    if (size < 1 || size > MAX_SIZE) {
      throw new IllegalArgumentException("size=" + size + " must be in 1.." + MAX_SIZE);
    }
  }

  /** All jobs, newest last run first, the first page of the default size. */
  public static JobQuery all() {
    return new JobQuery(null, null, null, null, null, null, "lastRun", true, 0, DEFAULT_SIZE);
  }

  /** The offset of the first row of the page. */
  public long offset() {
    return (long) page * size;
  }

  private static String blankToNull(String s) {
    return s == null || s.isBlank() ? null : s.trim();
  }
}
