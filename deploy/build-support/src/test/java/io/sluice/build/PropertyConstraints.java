package io.sluice.build;

import com.tngtech.archunit.core.domain.JavaAnnotation;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaFieldAccess;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.net.URL;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The valid values of a tuner-service property, read from the Bean Validation annotations of its
 * {@code @ConfigurationProperties} record component ({@code @Min}, {@code @Max},
 * {@code @DecimalMin}, {@code @DecimalMax}, {@code @Positive}, {@code @PositiveOrZero},
 * {@code @DurationMin}, {@code @DurationMax}, {@code @NotBlank}, {@code @Pattern}, {@code @Size})
 * and, for enums and booleans, from the type. The class files are read as bytes (ArchUnit's
 * importer), not loaded: the service's own dependencies (Spring) are not on this module's class
 * path, and the service may be a repackaged Boot jar ({@code BOOT-INF/classes/}).
 */
final class PropertyConstraints {
  private final ClassLoader loader;
  private final Map<String, Optional<JavaClass>> classes = new HashMap<>();

  PropertyConstraints(ClassLoader loader) {
    this.loader = loader;
  }

  /**
   * The valid values of property {@code name} (its last segment names the component) of record
   * {@code sourceType}, whose declared type is {@code type}: "any" when nothing constrains it.
   */
  String range(String sourceType, String name, String type) {
    if (type.equals("java.lang.Boolean")) {
      return "true, false";
    }
    Optional<JavaClass> enumType = load(type).filter(JavaClass::isEnum);
    if (enumType.isPresent()) {
      return String.join(", ", constants(enumType.get()));
    }
    String component = camelCase(name.substring(name.lastIndexOf('.') + 1));
    List<String> parts =
        load(sourceType)
            .flatMap(c -> c.tryGetField(component))
            .map(f -> describe(f.getAnnotations()))
            .orElse(List.of());
    return parts.isEmpty() ? "any" : String.join("; ", parts);
  }

  /**
   * An enum's constants in declaration order: the order in which its static initializer sets them
   * (the class file keeps fields in no order ArchUnit exposes).
   */
  private static List<String> constants(JavaClass e) {
    Map<String, Integer> line = new HashMap<>();
    e.getStaticInitializer()
        .ifPresent(
            init ->
                init.getFieldAccesses().stream()
                    .filter(a -> a.getAccessType() == JavaFieldAccess.AccessType.SET)
                    .forEach(a -> line.putIfAbsent(a.getTarget().getName(), a.getLineNumber())));
    return e.getFields().stream()
        .filter(f -> f.getModifiers().contains(JavaModifier.ENUM))
        .map(JavaField::getName)
        .sorted(
            Comparator.comparing((String n) -> line.getOrDefault(n, Integer.MAX_VALUE))
                .thenComparing(Comparator.naturalOrder()))
        .toList();
  }

  static List<String> describe(Iterable<? extends JavaAnnotation<?>> annotations) {
    Bounds bounds = new Bounds();
    List<String> other = new ArrayList<>();
    for (JavaAnnotation<?> a : annotations) {
      String simple = a.getRawType().getSimpleName();
      switch (simple) {
        case "Min" -> bounds.lower(text(a, "value"), true);
        case "Max" -> bounds.upper(text(a, "value"), true);
        case "DecimalMin" -> bounds.lower(text(a, "value"), flag(a, "inclusive"));
        case "DecimalMax" -> bounds.upper(text(a, "value"), flag(a, "inclusive"));
        case "Positive" -> bounds.lower("0", false);
        case "PositiveOrZero" -> bounds.lower("0", true);
        case "DurationMin" -> bounds.lower(duration(a), flag(a, "inclusive"));
        case "DurationMax" -> bounds.upper(duration(a), flag(a, "inclusive"));
        case "NotBlank" -> other.add("not blank");
        case "NotEmpty" -> other.add("not empty");
        case "Pattern" -> other.add("matches " + text(a, "regexp"));
        case "Size" -> other.add("size " + text(a, "min", "0") + " .. " + text(a, "max", "any"));
        default -> {}
      }
    }
    List<String> out = new ArrayList<>();
    bounds.text().ifPresent(out::add);
    out.addAll(other);
    return out;
  }

  /** A lower and an upper bound, each inclusive or not. */
  private static final class Bounds {
    private String lower;
    private boolean lowerIncluded;
    private String upper;
    private boolean upperIncluded;

    void lower(String value, boolean included) {
      lower = value;
      lowerIncluded = included;
    }

    void upper(String value, boolean included) {
      upper = value;
      upperIncluded = included;
    }

    Optional<String> text() {
      if (lower != null && upper != null && lowerIncluded && upperIncluded) {
        return Optional.of(lower + " .. " + upper);
      }
      List<String> parts = new ArrayList<>();
      if (lower != null) {
        parts.add((lowerIncluded ? "at least " : "above ") + lower);
      }
      if (upper != null) {
        parts.add((upperIncluded ? "at most " : "below ") + upper);
      }
      return parts.isEmpty() ? Optional.empty() : Optional.of(String.join(", ", parts));
    }
  }

  private Optional<JavaClass> load(String typeName) {
    return classes.computeIfAbsent(typeName, this::importClass);
  }

  private Optional<JavaClass> importClass(String typeName) {
    if (typeName.contains("<") || typeName.startsWith("java.")) {
      return Optional.empty();
    }
    String path = typeName.replace('.', '/') + ".class";
    for (String prefix : List.of("", "BOOT-INF/classes/")) {
      URL url = loader.getResource(prefix + path);
      if (url != null) {
        return new ClassFileImporter()
            .importUrl(url).stream().filter(c -> c.getName().equals(typeName)).findFirst();
      }
    }
    return Optional.empty();
  }

  /** {@code max-free-share} → {@code maxFreeShare}. */
  static String camelCase(String kebab) {
    StringBuilder out = new StringBuilder();
    boolean upper = false;
    for (char ch : kebab.toCharArray()) {
      if (ch == '-') {
        upper = true;
      } else {
        out.append(upper ? Character.toUpperCase(ch) : ch);
        upper = false;
      }
    }
    return out.toString();
  }

  private static String text(JavaAnnotation<?> a, String property) {
    return text(a, property, "");
  }

  private static String text(JavaAnnotation<?> a, String property, String absent) {
    return a.get(property).map(String::valueOf).orElse(absent);
  }

  /** An annotation's boolean property; absent means its default, true. */
  private static boolean flag(JavaAnnotation<?> a, String property) {
    return a.get(property).map(v -> (Boolean) v).orElse(true);
  }

  /** Hibernate Validator's {@code @DurationMin/@DurationMax} amount, in Spring's notation. */
  private static String duration(JavaAnnotation<?> a) {
    Duration d =
        Duration.ofDays(number(a, "days"))
            .plusHours(number(a, "hours"))
            .plusMinutes(number(a, "minutes"))
            .plusSeconds(number(a, "seconds"))
            .plusMillis(number(a, "millis"))
            .plusNanos(number(a, "nanos"));
    if (d.isZero()) {
      return "0s";
    }
    if (d.toNanos() % 1_000_000 != 0) {
      return d.toNanos() + "ns";
    }
    if (d.toMillis() % 1000 != 0) {
      return d.toMillis() + "ms";
    }
    return d.toSeconds() + "s";
  }

  private static long number(JavaAnnotation<?> a, String property) {
    return a.get(property).map(v -> ((Number) v).longValue()).orElse(0L);
  }
}
