package io.sluice.config;

import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The settings one component reads, in the order its reference lists them.
 *
 * @param component the component's name as the reference titles it ("ESS throttle gate", "Flink
 *     job", ...)
 * @param source where the values come from and in which form (a sentence or two of Markdown)
 * @param settings the declarations; keys are unique
 */
public record Catalogue(String component, String source, List<Setting<?>> settings) {
  public Catalogue {
    Objects.requireNonNull(component, "component");
    Objects.requireNonNull(source, "source");
    settings = List.copyOf(settings);
    Set<String> keys = new HashSet<>();
    for (Setting<?> s : settings) {
      if (!keys.add(s.key())) {
        throw new IllegalArgumentException(component + " declares " + s.key() + " twice");
      }
    }
  }

  /**
   * A catalogue of settings declared under a narrower type (a component's own subclass of {@link
   * Setting}).
   */
  public static Catalogue of(String component, String source, List<? extends Setting<?>> settings) {
    return new Catalogue(component, source, List.copyOf(settings));
  }

  /** The catalogue's setting with this key, or null. */
  public Setting<?> find(String key) {
    for (Setting<?> s : settings) {
      if (s.key().equals(key)) {
        return s;
      }
    }
    return null;
  }
}
