package io.sluice.tuner.api;

/**
 * The API's input limits ({@link io.sluice.contracts.api.Limits}, shared with the clients) and the
 * checks the controllers run against them; a failed check is a 400 naming the field.
 */
public final class Limits extends io.sluice.contracts.api.Limits {
  private Limits() {}

  /**
   * The trimmed job key, or a 400 naming {@code field} when blank or longer than {@link #JOB_KEY}.
   */
  public static String jobKey(String field, String jobKey) {
    if (jobKey == null || jobKey.isBlank()) {
      throw new BadRequest(field, field + " must not be blank");
    }
    String k = jobKey.trim();
    if (k.length() > JOB_KEY) {
      throw new BadRequest(
          field, field + " is longer than " + JOB_KEY + " characters (" + k.length() + ")");
    }
    return k;
  }
}
