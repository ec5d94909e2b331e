package org.apache.kyuubi.plugin;

import java.util.Map;

/**
 * Compile-time stand-in for Kyuubi's server plugin interface (org.apache.kyuubi:kyuubi-server-plugin, Kyuubi 1.5+):
 * same package, name and method, so the advisor binds to the real interface inside a Kyuubi server. This class is
 * never packaged (see the module pom); Kyuubi supplies the real one at run time.
 */
public interface SessionConfAdvisor {
  /** Confs that Kyuubi lays over the session's conf for {@code user}. */
  default Map<String, String> getConfOverlay(String user, Map<String, String> sessionConf) {
    return new java.util.HashMap<>();
  }
}
