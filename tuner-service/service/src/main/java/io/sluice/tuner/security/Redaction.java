package io.sluice.tuner.security;

import io.sluice.rules.AllowList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * What a caller may see of a run's Spark properties, for every answer that carries them (the jobs
 * API and the UI's run page and diff). A value is never shown when its key or the value itself
 * matches one of {@code sluice.security.secret-key-patterns}. A caller who does not operate the
 * run's queue (see {@link Caller#operates}) sees only the values of the tunable keys Sluice may
 * recommend (the allow-list) and of Sluice's own {@code spark.sluice.*} markers; every other value
 * reads {@link #REDACTED}. Keys are always shown, so a diff still lists every key that differs.
 */
@Component
public class Redaction {
  /** What a hidden value reads. */
  public static final String REDACTED = "*********(redacted)";

  private static final String SLUICE_MARKERS = "spark.sluice.";

  private final List<Pattern> secrets;
  private final Set<String> tunable;

  @Autowired
  public Redaction(SecurityProperties props) {
    this(props.secretKeyPatterns(), AllowList.defaults());
  }

  Redaction(List<String> secretPatterns, AllowList allowList) {
    this.secrets =
        secretPatterns.stream().map(p -> Pattern.compile(p, Pattern.CASE_INSENSITIVE)).toList();
    Set<String> keys = new TreeSet<>();
    allowList.keys().forEach(k -> keys.add(k.key()));
    this.tunable = Set.copyOf(keys);
  }

  /** The conf as {@code caller} may see it for a run of {@code queue}, in the conf's own order. */
  public Map<String, String> conf(Caller caller, String queue, Map<String, String> conf) {
    boolean operates = caller.operates(queue);
    Map<String, String> out = new LinkedHashMap<>();
    conf.forEach((k, v) -> out.put(k, shows(k, v, operates) ? v : REDACTED));
    return out;
  }

  /**
   * One value as {@code caller} may see it for a run of {@code queue} (null stays null: the key is
   * absent).
   */
  public String value(Caller caller, String queue, String key, String value) {
    return value == null || shows(key, value, caller.operates(queue)) ? value : REDACTED;
  }

  private boolean shows(String key, String value, boolean operates) {
    if (secret(key) || (value != null && secret(value))) {
      return false;
    }
    return operates || tunable.contains(key) || key.startsWith(SLUICE_MARKERS);
  }

  private boolean secret(String text) {
    for (Pattern p : secrets) {
      if (p.matcher(text).find()) {
        return true;
      }
    }
    return false;
  }
}
