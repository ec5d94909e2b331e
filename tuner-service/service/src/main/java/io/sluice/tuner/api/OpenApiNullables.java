package io.sluice.tuner.api;

import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.media.JsonSchema;
import io.swagger.v3.oas.models.media.Schema;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springframework.stereotype.Component;

/**
 * Makes the OpenAPI description say what the answers do: the service writes every field, null
 * included ({@code spring.jackson.default-property-inclusion: always}), so a property that is not
 * required may be null. Without this, clients and API fuzzers generated from the description reject
 * valid answers (an empty trial's {@code state: null}, a new rule's audit {@code before: null}).
 */
@Component
class OpenApiNullables implements OpenApiCustomizer {
  @Override
  public void customise(OpenAPI api) {
    if (api.getComponents() != null && api.getComponents().getSchemas() != null) {
      api.getComponents().getSchemas().values().forEach(s -> nullable(s, Set.of()));
    }
    if (api.getPaths() != null) {
      api.getPaths()
          .values()
          .forEach(
              p ->
                  p.readOperations()
                      .forEach(
                          op -> {
                            if (op.getResponses() != null) {
                              op.getResponses()
                                  .values()
                                  .forEach(
                                      r -> {
                                        if (r.getContent() != null) {
                                          r.getContent()
                                              .values()
                                              .forEach(m -> nullable(m.getSchema(), Set.of()));
                                        }
                                      });
                            }
                          }));
    }
  }

  @SuppressWarnings({"rawtypes", "unchecked"})
  private static void nullable(Schema<?> s, Set<Schema<?>> seen) {
    if (s == null || seen.contains(s)) {
      return;
    }
    Set<Schema<?>> path = new java.util.HashSet<>(seen);
    path.add(s);
    if (s.getItems() != null) {
      nullable(s.getItems(), path);
    }
    if (s.getAdditionalProperties() instanceof Schema<?> a) {
      nullable(a, path);
    }
    Map<String, Schema> props = s.getProperties();
    if (props == null) {
      return;
    }
    List<String> required = s.getRequired() == null ? List.of() : s.getRequired();
    for (Map.Entry<String, Schema> e : props.entrySet()) {
      Schema p = e.getValue();
      nullable(p, path);
      if (required.contains(e.getKey())) {
        continue;
      }
      if (p.get$ref() != null) {
        Schema none = new JsonSchema();
        none.addType("null");
        Schema either = new JsonSchema();
        either.setAnyOf(new ArrayList<>(List.of(p, none)));
        e.setValue(either);
        continue;
      }
      Set<String> types =
          p.getTypes() != null
              ? new LinkedHashSet<>(p.getTypes())
              : p.getType() != null ? new LinkedHashSet<>(Set.of(p.getType())) : null;
      if (types != null) {
        types.add("null");
        p.setTypes(types);
      }
      if (p.getEnum() != null && !p.getEnum().contains(null)) {
        p.getEnum().add(null);
      }
    }
  }
}
