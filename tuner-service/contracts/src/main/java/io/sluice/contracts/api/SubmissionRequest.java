package io.sluice.contracts.api;

import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * Body of {@code POST /api/v1/submissions}: a submission about to start, as every client sends it
 * and tuner-service binds it. {@code conf} holds the Spark confs the user set explicitly (sorted,
 * never null); {@code jobKey} is the explicit {@code spark.sluice.job.key} or null, and overrides
 * the derived job key. The constraints are checked by the service (Bean Validation); clients that
 * run without the annotations still get the same type.
 */
public record SubmissionRequest(
    @NotNull
        @Size(max = Limits.NAME)
        @Schema(requiredMode = Schema.RequiredMode.REQUIRED, example = "prod")
        String cluster,
    @Size(max = Limits.NAME) @Schema(nullable = true, example = "root.etl") String queue,
    @Size(max = Limits.NAME) @Schema(nullable = true, example = "alice") String user,
    @NotBlank
        @Size(max = Limits.NAME)
        @Schema(requiredMode = Schema.RequiredMode.REQUIRED, example = "nightly_sales_2026-11-21")
        String appName,
    @Size(max = Limits.JOB_KEY) @Schema(nullable = true) String jobKey,
    @Size(max = Limits.CONF_ENTRIES) @Schema(description = "the user's explicit Spark confs")
        Map<@Size(max = Limits.CONF_KEY) String, @Size(max = Limits.CONF_VALUE) String> conf) {
  public SubmissionRequest {
    conf = conf == null ? Map.of() : Collections.unmodifiableMap(new TreeMap<>(conf));
  }
}
