package io.sluice.tuner.tier;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * A job's deterministic rollout bucket under a rule: the first 8 bytes of SHA-256(rule id, NUL, job
 * key) as an unsigned number, scaled to [0, 100). A job is in a rule's rollout when its bucket is
 * below the rule's percent, so raising the percent only ever adds jobs, and the same job lands in
 * unrelated buckets under different rules.
 */
public final class Buckets {
  private Buckets() {}

  public static double of(String ruleId, String jobKey) {
    MessageDigest sha;
    try {
      sha = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required of every JVM", e);
    }
    sha.update(ruleId.getBytes(StandardCharsets.UTF_8));
    sha.update((byte) 0);
    byte[] d = sha.digest(jobKey.getBytes(StandardCharsets.UTF_8));
    long v = 0;
    for (int i = 0; i < 8; i++) {
      v = (v << 8) | (d[i] & 0xff);
    }
    // top 53 bits as a double in [0, 1)
    return (v >>> 11) * 0x1.0p-53 * 100.0;
  }

  public static boolean in(String ruleId, String jobKey, double percent) {
    return percent >= 100 || (percent > 0 && of(ruleId, jobKey) < percent);
  }
}
