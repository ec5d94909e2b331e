package io.sluice.tuner.security;

import io.sluice.rules.AllowList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.springframework.stereotype.Component;

/**
 * What a caller may see of a run's conf: values of keys matching {@code sluice.security.secret-key-patterns} are
 * never shown; a caller who does not operate the run's queue (see {@link Caller#operates}) sees only the values of
 * the tunable keys Sluice may recommend (the allow-list), every other value redacted. Keys are always shown.
 */
@Component
public class Redaction {
  public static final String REDACTED = "*********(redacted)";

  private final List<Pattern> secrets;
  private final AllowList tunable = AllowList.defaults();

  public Redaction(SecurityProperties props) {
    this.secrets = props.getSecretKeyPatterns().stream()
        .map(p -> Pattern.compile(p, Pattern.CASE_INSENSITIVE)).toList();
  }

  /** The conf as {@code caller} may see it for a run of {@code queue}. */
  public Map<String, String> conf(Caller caller, String queue, Map<String, String> conf) {
    boolean operates = caller.operates(queue);
    Map<String, String> out = new LinkedHashMap<>();
    conf.forEach((k, v) -> out.put(k, secret(k) || (!operates && tunable.key(k).isEmpty()) ? REDACTED : v));
    return out;
  }

  boolean secret(String key) {
    for (Pattern p : secrets) {
      if (p.matcher(key).find()) {
        return true;
      }
    }
    return false;
  }
}
