package io.sluice.fallback.health;

/** A health check's answer: {@code healthy}, with what was seen in words. */
public record Health(boolean healthy, String detail) {
  public static Health up(String detail) {
    return new Health(true, detail);
  }

  public static Health down(String detail) {
    return new Health(false, detail);
  }
}
