package io.sluice.listener;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import org.apache.spark.SparkConf;
import org.apache.spark.scheduler.SparkListenerEvent;

/**
 * Serialises a listener event exactly as Spark's event log does, through Spark's own {@code
 * org.apache.spark.util.JsonProtocol} (private to Spark, hence reflection):
 *
 * <ul>
 *   <li>Spark 3.4/3.5: {@code JsonProtocol.sparkEventToJsonString(SparkListenerEvent)};
 *   <li>Spark 4.x: {@code sparkEventToJsonString(SparkListenerEvent, JsonProtocolOptions)} where
 *       the options are built from the application's {@code SparkConf}, as {@code
 *       EventLoggingListener} does (the one-argument form still exists there but ignores the conf).
 * </ul>
 */
final class EventJson {

  private final MethodHandle toJson; // (SparkListenerEvent) -> String

  EventJson(SparkConf conf) {
    this.toJson = resolve(conf);
  }

  String toJson(SparkListenerEvent event) throws Throwable {
    return (String) toJson.invokeExact(event);
  }

  private static MethodHandle resolve(SparkConf conf) {
    MethodHandles.Lookup lookup = MethodHandles.publicLookup();
    ClassLoader cl = EventJson.class.getClassLoader();
    Class<?> protocol;
    try {
      protocol = Class.forName("org.apache.spark.util.JsonProtocol", true, cl);
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException(
          "org.apache.spark.util.JsonProtocol not found: unsupported Spark version", e);
    }
    MethodType oneArg = MethodType.methodType(String.class, SparkListenerEvent.class);
    try {
      Class<?> optionsClass = Class.forName("org.apache.spark.util.JsonProtocolOptions", true, cl);
      Object options = optionsClass.getConstructor(SparkConf.class).newInstance(conf);
      MethodHandle two =
          findStaticOrModule(
              lookup,
              protocol,
              MethodType.methodType(String.class, SparkListenerEvent.class, optionsClass));
      return MethodHandles.insertArguments(two, 1, options).asType(oneArg);
    } catch (ReflectiveOperationException | RuntimeException e) {
      // Spark 3.x: no options
    }
    try {
      return findStaticOrModule(lookup, protocol, oneArg).asType(oneArg);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(
          "JsonProtocol.sparkEventToJsonString not found: unsupported Spark version", e);
    }
  }

  /** A Scala object's method: the static forwarder if present, else bound to {@code MODULE$}. */
  private static MethodHandle findStaticOrModule(
      MethodHandles.Lookup lookup, Class<?> protocol, MethodType type)
      throws ReflectiveOperationException {
    try {
      return lookup.findStatic(protocol, "sparkEventToJsonString", type);
    } catch (NoSuchMethodException | IllegalAccessException e) {
      Class<?> module = Class.forName(protocol.getName() + "$", true, protocol.getClassLoader());
      Object instance = module.getField("MODULE$").get(null);
      return lookup.findVirtual(module, "sparkEventToJsonString", type).bindTo(instance);
    }
  }
}
