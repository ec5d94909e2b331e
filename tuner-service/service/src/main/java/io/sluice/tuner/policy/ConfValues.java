package io.sluice.tuner.policy;

import io.sluice.rules.AllowList;
import io.sluice.rules.RunConf;
import io.sluice.rules.Sizes;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * Reading, comparing and stepping values of allow-listed keys: the value in force (the run's conf,
 * else Spark's default as {@link RunConf} knows it), numbers in a key's unit, and formatting back
 * into Spark's syntax.
 */
final class ConfValues {
  private ConfValues() {}

  /**
   * The value in force in a run's conf: its own value, else Spark's default (null when unknown).
   */
  static String inForce(String key, Map<String, String> conf, String sparkVersion) {
    String raw = conf.get(key);
    if (raw != null) {
      return raw.trim();
    }
    RunConf c = new RunConf(conf, sparkVersion);
    return switch (key) {
      case RunConf.SHUFFLE_PARTITIONS -> "200";
      case RunConf.AQE -> Boolean.toString(c.aqeEnabled());
      case RunConf.COALESCE, RunConf.PARALLELISM_FIRST, RunConf.SKEW_JOIN -> "true";
      case RunConf.ADVISORY -> Sizes.sparkBytes(c.advisoryBytes());
      case RunConf.SKEW_THRESHOLD -> "256m";
      case RunConf.SKEW_FACTOR -> "5";
      case RunConf.MAX_PARTITION_BYTES -> "128m";
      case RunConf.CODEC -> "lz4";
      case RunConf.IO_MAX_RETRIES -> "3";
      case RunConf.IO_RETRY_WAIT -> "5s";
      case RunConf.MAX_SIZE_IN_FLIGHT -> "48m";
      case RunConf.MEMORY_FRACTION -> "0.6";
      case RunConf.EXECUTOR_MEMORY -> "1g";
      case RunConf.SHUFFLE_TRACKING -> Boolean.toString(c.shuffleTracking());
      default -> null;
    };
  }

  static boolean numeric(AllowList.Kind kind) {
    return kind != AllowList.Kind.BOOLEAN && kind != AllowList.Kind.CHOICE;
  }

  /** A value as a number in the key's unit (bytes, ms, or plain), empty when it does not parse. */
  static OptionalDouble number(AllowList.Key key, String value) {
    if (value == null) {
      return OptionalDouble.empty();
    }
    String v = value.trim();
    try {
      return switch (key.kind()) {
        case INT -> OptionalDouble.of(Long.parseLong(v));
        case DOUBLE -> OptionalDouble.of(Double.parseDouble(v));
        case BYTES -> OptionalDouble.of(Sizes.parseBytes(v, 1));
        case MEMORY -> OptionalDouble.of(Sizes.parseBytes(v, Sizes.MIB));
        case SECONDS -> OptionalDouble.of(Sizes.parseMillis(v, 1000));
        default -> OptionalDouble.empty();
      };
    } catch (RuntimeException e) {
      return OptionalDouble.empty();
    }
  }

  /** A number in the key's unit written the way Spark reads it for that key. */
  static String format(AllowList.Key key, double n) {
    return switch (key.kind()) {
      case INT -> Long.toString(Math.round(n));
      case DOUBLE -> Sizes.plain(Math.round(n * 1000) / 1000.0);
      case BYTES, MEMORY -> Sizes.sparkBytes(roundBytes(n));
      case SECONDS -> {
        long ms = Math.round(n);
        yield ms % 1000 == 0 ? ms / 1000 + "s" : ms + "ms";
      }
      default -> throw new IllegalArgumentException(key.key() + " is not numeric");
    };
  }

  /** Whole MiB above 1 MiB, whole KiB above 1 KiB, else bytes: sizes stay readable after a step. */
  private static long roundBytes(double n) {
    long b = Math.round(n);
    if (b >= Sizes.MIB) {
      return Math.round(n / Sizes.MIB) * Sizes.MIB;
    }
    if (b >= Sizes.KIB) {
      return Math.round(n / Sizes.KIB) * Sizes.KIB;
    }
    return b;
  }

  /**
   * Whether two values of a key mean the same (numerically for numbers, case-insensitively for
   * words).
   */
  static boolean same(AllowList.Key key, String a, String b) {
    if (a == null || b == null) {
      return a == b;
    }
    if (numeric(key.kind())) {
      OptionalDouble x = number(key, a);
      OptionalDouble y = number(key, b);
      if (x.isPresent() && y.isPresent()) {
        return x.getAsDouble() == y.getAsDouble();
      }
    }
    return a.trim().toLowerCase(Locale.ROOT).equals(b.trim().toLowerCase(Locale.ROOT));
  }

  /**
   * The direction of a change, remembered when a change is rolled back: {@code up} or {@code down}
   * for numbers (relative to the value in force), {@code =value} for booleans and choices.
   */
  static String direction(AllowList.Key key, String from, String to) {
    if (numeric(key.kind())) {
      OptionalDouble x = number(key, from);
      OptionalDouble y = number(key, to);
      if (x.isPresent() && y.isPresent()) {
        return y.getAsDouble() > x.getAsDouble()
            ? "up"
            : y.getAsDouble() < x.getAsDouble() ? "down" : "same";
      }
    }
    return "=" + (to == null ? "" : to.trim().toLowerCase(Locale.ROOT));
  }
}
