package io.sluice.submit.client;

import io.sluice.contracts.api.Change;
import java.util.List;
import java.util.Map;

/**
 * A validated answer of tuner-service. {@code overlay} holds only allow-listed keys with in-bound
 * values, in the order the service sent them; {@code dropped} says which overlay entries were
 * refused and why; {@code platform} holds the platform's additions (never null; {@link
 * Platform#NONE} when the answer had none or an unusable one).
 */
public record Advice(
    String submissionId,
    String jobKey,
    String state,
    Map<String, String> overlay,
    List<Change> changes,
    List<String> reasons,
    List<String> dropped,
    Platform platform) {

  /**
   * What the platform adds besides tuning (not tuning recommendations, so not checked against the
   * AllowList, but never overriding a key the user set): confs, jars for {@code spark.jars}, plugin
   * classes for {@code spark.plugins}, and the service's reasons.
   */
  public record Platform(
      Map<String, String> confs, List<String> jars, List<String> plugins, List<String> reasons) {
    public static final Platform NONE = new Platform(Map.of(), List.of(), List.of(), List.of());

    public Platform {
      confs = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(confs));
      jars = List.copyOf(jars);
      plugins = List.copyOf(plugins);
      reasons = List.copyOf(reasons);
    }

    public boolean isEmpty() {
      return confs.isEmpty() && jars.isEmpty() && plugins.isEmpty();
    }
  }

  public Advice {
    overlay = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(overlay));
    changes = List.copyOf(changes);
    reasons = List.copyOf(reasons);
    dropped = List.copyOf(dropped);
    platform = platform == null ? Platform.NONE : platform;
  }

  /** An answer without platform additions. */
  public Advice(
      String submissionId,
      String jobKey,
      String state,
      Map<String, String> overlay,
      List<Change> changes,
      List<String> reasons,
      List<String> dropped) {
    this(submissionId, jobKey, state, overlay, changes, reasons, dropped, Platform.NONE);
  }
}
