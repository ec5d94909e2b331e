package io.sluice.kafka.security;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * The Kafka client security settings every Sluice producer and consumer adds to its own (the Spark
 * listener, the collectors, the Flink job, the ESS gate's event publisher), in one way:
 *
 * <table>
 * <tr><th>source</th><th>holds</th></tr>
 * <tr><td>the file named by {@value #ENV_FILE} (environment) or {@value #PROPERTY_FILE} (JVM system property)</td>
 *     <td>Kafka client properties in {@link Properties} format: {@code security.protocol}, {@code sasl.*},
 *     {@code ssl.*}, passwords and {@code sasl.jaas.config} included. Keep it readable by the service user only.</td></tr>
 * <tr><td>{@value #ENV_JAAS}</td><td>{@code sasl.jaas.config}, overriding the file's</td></tr>
 * </table>
 *
 * Only security keys ({@link #isSecurityKey}) are taken from the file; anything else is ignored, so
 * the file cannot change a component's delivery semantics. Secrets ({@link #isSecret}) are accepted
 * only from these two sources: {@link #withoutSecrets} drops them from settings that travel in a
 * Spark conf (which lands in event logs and the UI), and {@link #redact} hides them in anything
 * logged.
 */
public final class KafkaClientSecurity {
  public static final String ENV_FILE = "SLUICE_KAFKA_CLIENT_PROPERTIES";
  public static final String PROPERTY_FILE = "sluice.kafka.client-properties";
  public static final String ENV_JAAS = "SLUICE_KAFKA_SASL_JAAS_CONFIG";
  public static final String JAAS = "sasl.jaas.config";
  static final String REDACTED = "*********(redacted)";

  /**
   * Kafka's own package, built at run time: a shading relocation rewrites string constants that
   * name it.
   */
  private static final String KAFKA_PACKAGE = String.join(".", "org", "apache", "kafka", "");

  private KafkaClientSecurity() {}

  /** {@code security.protocol} and every {@code sasl.*} and {@code ssl.*} client property. */
  public static boolean isSecurityKey(String key) {
    return key.equals("security.protocol") || key.startsWith("sasl.") || key.startsWith("ssl.");
  }

  /** Passwords, private keys and JAAS configurations (which carry passwords or keytab paths). */
  public static boolean isSecret(String key) {
    String k = key.toLowerCase(java.util.Locale.ROOT);
    return k.contains("password") || k.equals(JAAS) || k.endsWith(".key") || k.contains("secret");
  }

  /** The settings of this process: its environment and {@value #PROPERTY_FILE}. */
  public static Map<String, String> fromProcess() {
    return load(System.getenv(), System.getProperty(PROPERTY_FILE));
  }

  /**
   * The security settings from {@value #ENV_FILE} (else the file {@code fileProperty} names) and
   * {@value #ENV_JAAS}; empty when none is set. An unreadable file is an {@link
   * UncheckedIOException} naming it.
   */
  public static Map<String, String> load(Map<String, String> env, String fileProperty) {
    Map<String, String> out = new TreeMap<>();
    String file = firstNonBlank(env.get(ENV_FILE), fileProperty);
    if (file != null) {
      Properties p = new Properties();
      try (Reader r = Files.newBufferedReader(Path.of(file), StandardCharsets.UTF_8)) {
        p.load(r);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read the Kafka client properties " + file, e);
      }
      for (String k : p.stringPropertyNames()) {
        if (isSecurityKey(k)) {
          out.put(k, p.getProperty(k).trim());
        }
      }
    }
    String jaas = env.get(ENV_JAAS);
    if (jaas != null && !jaas.isBlank()) {
      out.put(JAAS, jaas.trim());
    }
    return Collections.unmodifiableMap(out);
  }

  /**
   * {@code settings} without secrets, each dropped key reported (by name only) to {@code dropped}:
   * for settings that come from a Spark conf.
   */
  public static Map<String, String> withoutSecrets(
      Map<String, String> settings, Consumer<String> dropped) {
    Map<String, String> out = new LinkedHashMap<>();
    settings.forEach(
        (k, v) -> {
          if (isSecret(k)) {
            dropped.accept(k);
          } else {
            out.put(k, v);
          }
        });
    return out;
  }

  /** A copy fit for a log line: every secret's value replaced. */
  public static Map<String, Object> redact(Map<String, ?> settings) {
    Map<String, Object> out = new TreeMap<>();
    settings.forEach((k, v) -> out.put(k, isSecret(k) ? REDACTED : v));
    return out;
  }

  /**
   * For a client whose Kafka classes were relocated by shading: class names in the values ({@code
   * org.apache.kafka.common.security.plain.PlainLoginModule} in a JAAS config, callback handler
   * classes) rewritten to the relocated package, found from the run-time name of a Kafka class the
   * caller names ({@code kafkaClassName}, e.g. {@code ProducerConfig.class.getName()}). Unchanged
   * when Kafka is not relocated.
   */
  public static Map<String, String> relocated(Map<String, String> settings, String kafkaClassName) {
    String name = kafkaClassName;
    int at = name.indexOf(".clients.");
    if (at < 0) {
      at = name.indexOf(".common.");
    }
    String prefix = at < 0 ? KAFKA_PACKAGE : name.substring(0, at + 1);
    if (prefix.equals(KAFKA_PACKAGE)) {
      return settings;
    }
    Map<String, String> out = new LinkedHashMap<>();
    settings.forEach((k, v) -> out.put(k, v == null ? null : v.replace(KAFKA_PACKAGE, prefix)));
    return out;
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
