package io.sluice.listener;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Pattern;
import org.apache.spark.SparkConf;
import org.apache.spark.scheduler.SparkListenerEnvironmentUpdate;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.apache.spark.scheduler.SparkListenerStageSubmitted;

/**
 * The redaction {@code EventLoggingListener} applies before writing, so secrets never reach Kafka
 * and the envelope's event equals the event-log line:
 *
 * <ul>
 *   <li>environment updates go through Spark's own {@code EventLoggingListener.redactEvent(conf,
 *       event)};
 *   <li>job and stage properties that are also Spark conf entries get their value replaced when the
 *       key or the value matches {@code spark.redaction.regex}; other (local) properties are kept.
 *       The properties are rebuilt into a fresh {@link Properties} as Spark does, which keeps the
 *       order the event log shows.
 * </ul>
 */
final class Redaction {

  static final String REPLACEMENT = "*********(redacted)";
  static final String DEFAULT_REGEX = "(?i)secret|password|token|access[.]?key";

  private final SparkConf conf;
  private final Pattern pattern;
  private final MethodHandle
      redactEnvironment; // (SparkConf, SparkListenerEnvironmentUpdate) -> same

  Redaction(SparkConf conf) {
    this.conf = conf;
    this.pattern = Pattern.compile(conf.get("spark.redaction.regex", DEFAULT_REGEX));
    this.redactEnvironment = findRedactEvent();
  }

  private static MethodHandle findRedactEvent() {
    MethodType type =
        MethodType.methodType(
            SparkListenerEnvironmentUpdate.class,
            SparkConf.class,
            SparkListenerEnvironmentUpdate.class);
    MethodHandles.Lookup lookup = MethodHandles.publicLookup();
    try {
      Class<?> ell =
          Class.forName(
              "org.apache.spark.scheduler.EventLoggingListener",
              true,
              Redaction.class.getClassLoader());
      try {
        return lookup.findStatic(ell, "redactEvent", type);
      } catch (NoSuchMethodException | IllegalAccessException e) {
        Class<?> module = Class.forName(ell.getName() + "$", true, ell.getClassLoader());
        Object instance = module.getField("MODULE$").get(null);
        return lookup.findVirtual(module, "redactEvent", type).bindTo(instance);
      }
    } catch (ReflectiveOperationException | RuntimeException e) {
      return null;
    }
  }

  /** The redacted event, or null when Spark's redaction is not available (then nothing is sent). */
  SparkListenerEnvironmentUpdate environmentUpdate(SparkListenerEnvironmentUpdate e) {
    if (redactEnvironment == null) {
      return null;
    }
    try {
      return (SparkListenerEnvironmentUpdate) redactEnvironment.invokeExact(conf, e);
    } catch (Throwable t) {
      return null;
    }
  }

  SparkListenerJobStart jobStart(SparkListenerJobStart e) {
    if (e.properties() == null) {
      return e;
    }
    return new SparkListenerJobStart(
        e.jobId(), e.time(), e.stageInfos(), properties(e.properties()));
  }

  SparkListenerStageSubmitted stageSubmitted(SparkListenerStageSubmitted e) {
    if (e.properties() == null) {
      return e;
    }
    return new SparkListenerStageSubmitted(e.stageInfo(), properties(e.properties()));
  }

  Properties properties(Properties in) {
    Properties out = new Properties();
    for (Map.Entry<Object, Object> kv : in.entrySet()) {
      Object k = kv.getKey();
      Object v = kv.getValue();
      if (k instanceof String key
          && v instanceof String value
          && conf.contains(key)
          && (pattern.matcher(key).find() || pattern.matcher(value).find())) {
        out.put(key, REPLACEMENT);
      } else {
        out.put(k, v);
      }
    }
    return out;
  }
}
