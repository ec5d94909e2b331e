package io.sluice.store;

/**
 * What a job's stored runs look like from outside, cheaply: how many there are, the greatest {@code
 * updatedAt} among them and the sum of their {@code updatedAt}s (modulo 2<sup>64</sup>). Adding a
 * run, removing one or replacing one with a newer version changes it, so a value derived from the
 * runs can be kept as long as this stays equal. (A version re-stored with the same {@code
 * updatedAt} is, by the store's contract, the same run.)
 */
public record RunsVersion(long runs, long maxUpdatedAt, long updatedAtSum) {
  /** The version of a job without stored runs. */
  public static final RunsVersion NONE = new RunsVersion(0, 0, 0);
}
