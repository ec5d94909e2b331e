package io.sluice.submit.platform;

import io.sluice.submit.client.Advice;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a client lets the answer's {@code platform} block ({@link Advice.Platform}) add to an
 * application, decided on the client's side so that a compromised or impersonated tuner-service
 * cannot put an arbitrary conf, plugin class or jar into every job. Configured by the platform on
 * the gateway or the Kyuubi server, never by a Spark conf:
 *
 * <table>
 * <tr><th>source</th><th>meaning</th></tr>
 * <tr><td>{@value #ENV_FILE} (environment) or {@value #PROPERTY_FILE} (JVM system property)</td>
 *     <td>a file of entries, one per line</td></tr>
 * <tr><td>{@value #ENV_INLINE} (environment)</td><td>entries separated by newlines or {@code ;}</td></tr>
 * <tr><td>neither</td><td>{@link #DEFAULT_ENTRIES}: exactly what Sluice's own platform additions use</td></tr>
 * </table>
 *
 * <p>Entries ({@code #} starts a comment): {@code conf KEY} or {@code conf PREFIX*} (a conf key, or
 * every key that starts with the prefix), {@code plugin CLASS}, {@code jar PREFIX} (a jar location
 * that starts with the prefix; the default allows local paths only), and {@code defaults} (the
 * built-in entries). A configured list replaces the defaults unless it says {@code defaults}. A
 * malformed entry is an {@link IllegalArgumentException} naming it.
 */
public final class PlatformAllowList {
  public static final String ENV_FILE = "SLUICE_PLATFORM_ALLOW_FILE";
  public static final String ENV_INLINE = "SLUICE_PLATFORM_ALLOW";
  public static final String PROPERTY_FILE = "sluice.platform.allow-file";

  /**
   * The built-in entries: the keys, plugins and jar locations of Sluice's own platform contributors
   * — the ESS throttle (app reporter and client shim plugins, the reporter's service URL, shim
   * settings) and the push tier (the overlay keys of Spark push, Celeborn and Uniffle, Sluice's
   * fallback manager on the class paths with the user's original value kept, and the tier markers).
   */
  public static final List<String> DEFAULT_ENTRIES =
      List.of(
          "plugin io.sluice.submit.plugin.SluiceAppReporterPlugin",
          "plugin io.sluice.throttle.shim.SluiceShimPlugin",
          "conf spark.sluice.tuner.url",
          "conf spark.sluice.shim.*",
          "conf spark.sluice.tier",
          "conf spark.sluice.tier.*",
          "conf spark.shuffle.manager",
          "conf spark.shuffle.service.enabled",
          "conf spark.shuffle.push.enabled",
          "conf spark.serializer",
          "conf spark.yarn.maxAppAttempts",
          "conf spark.driver.extraClassPath",
          "conf spark.executor.extraClassPath",
          "conf spark.sluice.original.spark.driver.extraClassPath",
          "conf spark.sluice.original.spark.executor.extraClassPath",
          "conf spark.celeborn.master.endpoints",
          "conf spark.celeborn.client.spark.shuffle.fallback.policy",
          "conf spark.celeborn.quota.identity.provider",
          "conf spark.celeborn.quota.identity.user-specific.tenant",
          "conf spark.rss.coordinator.quorum",
          "conf spark.rss.access.id",
          "jar /",
          "jar file:/",
          "jar local:/");

  private final List<String> confKeys;
  private final List<String> confPrefixes;
  private final List<String> plugins;
  private final List<String> jarPrefixes;
  private final String source;

  private PlatformAllowList(
      List<String> confKeys,
      List<String> confPrefixes,
      List<String> plugins,
      List<String> jarPrefixes,
      String source) {
    this.confKeys = List.copyOf(confKeys);
    this.confPrefixes = List.copyOf(confPrefixes);
    this.plugins = List.copyOf(plugins);
    this.jarPrefixes = List.copyOf(jarPrefixes);
    this.source = source;
  }

  /** The built-in list. */
  public static PlatformAllowList defaults() {
    return parse(DEFAULT_ENTRIES, "built-in defaults");
  }

  /**
   * The list the platform configured: {@value #ENV_FILE}, else the system property {@value
   * #PROPERTY_FILE}, else {@value #ENV_INLINE}, else {@link #defaults()}. An unreadable file or a
   * malformed entry throws (the caller then applies no platform additions at all rather than
   * guessing).
   */
  public static PlatformAllowList configured(Map<String, String> env, String fileProperty) {
    String file = firstNonBlank(env.get(ENV_FILE), fileProperty);
    if (file != null) {
      try {
        return parse(Files.readAllLines(Path.of(file), StandardCharsets.UTF_8), file);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read the platform allow-list " + file, e);
      }
    }
    String inline = env.get(ENV_INLINE);
    if (inline != null && !inline.isBlank()) {
      return parse(Arrays.asList(inline.split("[\\n;]")), ENV_INLINE);
    }
    return defaults();
  }

  /**
   * {@link #configured}, or when the configuration cannot be read a list that allows nothing, after
   * one line to {@code err} saying why (a broken allow-list never widens what the platform may add,
   * and never fails the job).
   */
  public static PlatformAllowList configuredOrNothing(
      Map<String, String> env, String fileProperty, java.io.PrintStream err) {
    try {
      return configured(env, fileProperty);
    } catch (RuntimeException e) {
      err.println(
          "sluice: "
              + e.getMessage()
              + (e.getCause() == null ? "" : " (" + e.getCause() + ")")
              + "; no platform additions will be applied");
      return parse(List.of(), "nothing (unreadable configuration)");
    }
  }

  /** Parses entries (see the class comment); {@code source} names them in errors. */
  public static PlatformAllowList parse(List<String> lines, String source) {
    List<String> keys = new ArrayList<>();
    List<String> prefixes = new ArrayList<>();
    List<String> plugins = new ArrayList<>();
    List<String> jars = new ArrayList<>();
    int n = 0;
    for (String raw : lines) {
      n++;
      int hash = raw.indexOf('#');
      String line = (hash >= 0 ? raw.substring(0, hash) : raw).trim();
      if (line.isEmpty()) {
        continue;
      }
      if (line.equals("defaults")) {
        PlatformAllowList d = defaults();
        keys.addAll(d.confKeys);
        prefixes.addAll(d.confPrefixes);
        plugins.addAll(d.plugins);
        jars.addAll(d.jarPrefixes);
        continue;
      }
      String[] parts = line.split("\\s+");
      if (parts.length != 2) {
        throw new IllegalArgumentException(
            source
                + " entry "
                + n
                + " '"
                + line
                + "' is not 'conf KEY', 'conf PREFIX*', 'plugin CLASS', 'jar PREFIX' or 'defaults'");
      }
      String value = parts[1];
      switch (parts[0]) {
        case "conf" -> {
          if (value.endsWith("*")) {
            prefixes.add(value.substring(0, value.length() - 1));
          } else {
            keys.add(value);
          }
        }
        case "plugin" -> plugins.add(value);
        case "jar" -> jars.add(value);
        default ->
            throw new IllegalArgumentException(
                source
                    + " entry "
                    + n
                    + " '"
                    + line
                    + "': unknown kind '"
                    + parts[0]
                    + "' (conf, plugin, jar or defaults)");
      }
    }
    return new PlatformAllowList(keys, prefixes, plugins, jars, source);
  }

  /** Where the list came from (a file name, the environment variable, or the built-in defaults). */
  public String source() {
    return source;
  }

  public boolean allowsConf(String key) {
    return confKeys.contains(key) || confPrefixes.stream().anyMatch(key::startsWith);
  }

  public boolean allowsPlugin(String className) {
    return plugins.contains(className);
  }

  public boolean allowsJar(String location) {
    return jarPrefixes.stream().anyMatch(location::startsWith);
  }

  /**
   * The part of {@code platform} this list allows, and one entry per refused conf, plugin or jar.
   */
  public Filtered filter(Advice.Platform platform) {
    Map<String, String> confs = new LinkedHashMap<>();
    List<String> refused = new ArrayList<>();
    platform
        .confs()
        .forEach(
            (k, v) -> {
              if (allowsConf(k)) {
                confs.put(k, v);
              } else {
                refused.add("conf " + k);
              }
            });
    List<String> plugins = allowed(platform.plugins(), this::allowsPlugin, "plugin ", refused);
    List<String> jars = allowed(platform.jars(), this::allowsJar, "jar ", refused);
    return new Filtered(new Advice.Platform(confs, jars, plugins, platform.reasons()), refused);
  }

  private static List<String> allowed(
      List<String> values,
      java.util.function.Predicate<String> allows,
      String kind,
      List<String> refused) {
    List<String> out = new ArrayList<>();
    for (String v : values) {
      if (allows.test(v)) {
        out.add(v);
      } else {
        refused.add(kind + v);
      }
    }
    return out;
  }

  /** The allowed additions and what was refused (empty when everything was allowed). */
  public record Filtered(Advice.Platform platform, List<String> refused) {
    public Filtered {
      refused = List.copyOf(refused);
    }
  }

  private static String firstNonBlank(String... values) {
    for (String v : values) {
      if (v != null && !v.isBlank()) {
        return v.trim();
      }
    }
    return null;
  }
}
