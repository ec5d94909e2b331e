package io.sluice.build;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.config.Catalogue;
import io.sluice.config.Setting;
import io.sluice.config.Unit;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The tuner-service's settings as Spring Boot's configuration processor records them ({@code
 * META-INF/spring-configuration-metadata.json}, written when the service compiles): one catalogue
 * per {@code @ConfigurationProperties} record, its keys, types, {@code @DefaultValue}s and the
 * records' {@code @param} docs, with the valid values their Bean Validation annotations declare
 * ({@link PropertyConstraints}). The records bind and validate the values themselves at start-up;
 * these settings only describe them.
 */
final class SpringMetadata {
  /**
   * Where the file sits in the service's classes: a plain directory, or the repackaged Boot jar.
   */
  static final List<String> LOCATIONS =
      List.of(
          "META-INF/spring-configuration-metadata.json",
          "BOOT-INF/classes/META-INF/spring-configuration-metadata.json");

  private SpringMetadata() {}

  /**
   * The catalogues of the service's own properties ({@code io.sluice.*} types) on the class path.
   */
  static List<Catalogue> tunerService() {
    ClassLoader loader = SpringMetadata.class.getClassLoader();
    for (String location : LOCATIONS) {
      try (InputStream in = loader.getResourceAsStream(location)) {
        if (in != null) {
          return catalogues(new ObjectMapper().readTree(in), new PropertyConstraints(loader));
        }
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read " + location, e);
      }
    }
    throw new IllegalStateException(
        "no spring-configuration-metadata.json on the class path: build "
            + "tuner-service/service first (mvn -pl tuner-service/service -am install -DskipTests)");
  }

  /**
   * One catalogue per record of {@code metadata}; each setting's valid values from {@code
   * constraints}.
   */
  static List<Catalogue> catalogues(JsonNode metadata, PropertyConstraints constraints) {
    Map<String, String> roots = new LinkedHashMap<>();
    for (JsonNode g : metadata.path("groups")) {
      String type = g.path("type").asText();
      if (type.startsWith("io.sluice.")
          && type.equals(g.path("sourceType").asText())
          && !g.has("sourceMethod")) {
        roots.put(g.path("name").asText(), type.substring(type.lastIndexOf('.') + 1));
      }
    }
    Map<String, List<Setting<?>>> byRoot = new LinkedHashMap<>();
    roots.keySet().stream().sorted().forEach(r -> byRoot.put(r, new ArrayList<>()));
    List<JsonNode> properties = new ArrayList<>();
    metadata.path("properties").forEach(properties::add);
    properties.sort(Comparator.comparing(p -> p.path("name").asText()));
    for (JsonNode p : properties) {
      String name = p.path("name").asText();
      String root =
          roots.keySet().stream()
              .filter(r -> name.startsWith(r + "."))
              .max(Comparator.comparingInt(String::length))
              .orElse(null);
      if (root != null && p.path("sourceType").asText().startsWith("io.sluice.")) {
        byRoot.get(root).add(setting(p, constraints));
      }
    }
    List<Catalogue> out = new ArrayList<>();
    byRoot.forEach(
        (root, settings) ->
            out.add(
                Catalogue.of(
                    "tuner-service " + root,
                    "Spring Boot properties of the "
                        + "record `"
                        + roots.get(root)
                        + "` (`application.properties`, `--"
                        + root
                        + ".…=` arguments or "
                        + "environment variables); bound and validated when the service starts, which fails naming a bad value. "
                        + "The valid values are those the record's Bean Validation constraints declare. "
                        + "Durations take units (`50ms`, `2s`, `1h`), sizes too (`500MB`, `2GB`).",
                    settings)));
    return out;
  }

  private static Setting<String> setting(JsonNode p, PropertyConstraints constraints) {
    String type = p.path("type").asText();
    String name = p.path("name").asText();
    return Setting.of(
        name,
        unit(type),
        defaultText(p.path("defaultValue")),
        constraints.range(p.path("sourceType").asText(), name, type),
        sentence(p.path("description").asText("")),
        (key, raw) -> raw);
  }

  static Unit unit(String type) {
    if (type.equals("java.time.Duration")) {
      return Unit.DURATION;
    }
    if (type.endsWith(".DataSize")) {
      return Unit.SIZE;
    }
    if (type.equals("java.lang.Boolean")) {
      return Unit.BOOLEAN;
    }
    if (type.equals("java.lang.Integer")
        || type.equals("java.lang.Long")
        || type.equals("java.lang.Double")) {
      return Unit.NUMBER;
    }
    if (type.startsWith("java.util.List") || type.startsWith("java.util.Set")) {
      return Unit.LIST;
    }
    if (type.startsWith("java.util.Map")) {
      return Unit.MAP;
    }
    return type.startsWith("java.") ? Unit.TEXT : Unit.ENUM;
  }

  private static String defaultText(JsonNode d) {
    if (d.isMissingNode() || d.isNull()) {
      return "";
    }
    if (d.isArray()) {
      List<String> items = new ArrayList<>();
      d.forEach(i -> items.add(i.asText()));
      return String.join(",", items);
    }
    return d.asText();
  }

  /**
   * A record's {@code @param} text as a sentence: capital first letter, Javadoc code tags as
   * Markdown.
   */
  static String sentence(String doc) {
    String s = doc.replaceAll("\\{@(?:code|link) ([^}]*)}", "`$1`").replaceAll("\\s+", " ").strip();
    if (s.isEmpty()) {
      return s;
    }
    s = Character.toUpperCase(s.charAt(0)) + s.substring(1);
    return s.endsWith(".") ? s : s + ".";
  }
}
