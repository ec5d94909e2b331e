package io.sluice.tuner.api;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.type.LogicalType;
import org.springframework.boot.autoconfigure.jackson.Jackson2ObjectMapperBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Request bodies bind strictly: a field of the wrong JSON type ({@code "queue": 7}, {@code
 * "percent": "5"}, {@code "attempt": 1.5}) and a field the request record does not declare are
 * refused, and {@link ApiErrors} answers 400 naming the field from Jackson's path. Jackson's scalar
 * coercions are turned off for that, per logical type; empty strings still bind as empty strings.
 */
@Configuration(proxyBeanMethods = false)
class StrictJson {
  @Bean
  Jackson2ObjectMapperBuilderCustomizer strictRequestBinding() {
    return b ->
        b.featuresToEnable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .postConfigurer(
                m -> {
                  for (CoercionInputShape s :
                      new CoercionInputShape[] {
                        CoercionInputShape.Integer,
                        CoercionInputShape.Float,
                        CoercionInputShape.Boolean
                      }) {
                    m.coercionConfigFor(LogicalType.Textual).setCoercion(s, CoercionAction.Fail);
                  }
                  for (LogicalType t :
                      new LogicalType[] {
                        LogicalType.Integer, LogicalType.Float, LogicalType.Boolean
                      }) {
                    m.coercionConfigFor(t)
                        .setCoercion(CoercionInputShape.String, CoercionAction.Fail);
                  }
                  m.coercionConfigFor(LogicalType.Integer)
                      .setCoercion(CoercionInputShape.Float, CoercionAction.Fail);
                  m.coercionConfigFor(LogicalType.Boolean)
                      .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail);
                });
  }
}
