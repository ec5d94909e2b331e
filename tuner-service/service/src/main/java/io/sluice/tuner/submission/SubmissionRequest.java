package io.sluice.tuner.submission;

import io.sluice.tuner.api.Limits;
import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import java.util.Map;

/**
 * A submission about to start (REST contract). {@code conf} holds the Spark confs the user set explicitly;
 * {@code jobKey} overrides the derived job key.
 */
public record SubmissionRequest(
    @NotNull @Size(max = Limits.NAME) @Schema(requiredMode = Schema.RequiredMode.REQUIRED, example = "prod")
    String cluster,
    @Size(max = Limits.NAME) @Schema(nullable = true, example = "root.etl") String queue,
    @Size(max = Limits.NAME) @Schema(nullable = true, example = "alice") String user,
    @NotBlank @Size(max = Limits.NAME)
    @Schema(requiredMode = Schema.RequiredMode.REQUIRED, example = "nightly_sales_2026-11-21") String appName,
    @Size(max = Limits.JOB_KEY) @Schema(nullable = true) String jobKey,
    @Size(max = Limits.CONF_ENTRIES) @Schema(description = "the user's explicit Spark confs")
    Map<@Size(max = Limits.CONF_KEY) String, @Size(max = Limits.CONF_VALUE) String> conf) {}
