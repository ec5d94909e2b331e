package io.sluice.tuner.submission;

import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import java.util.Map;

/**
 * A submission about to start (REST contract). {@code conf} holds the Spark confs the user set explicitly;
 * {@code jobKey} overrides the derived job key.
 */
public record SubmissionRequest(
    @NotNull @Schema(requiredMode = Schema.RequiredMode.REQUIRED, example = "prod") String cluster,
    @Schema(nullable = true, example = "root.etl") String queue,
    @Schema(nullable = true, example = "alice") String user,
    @NotBlank @Schema(requiredMode = Schema.RequiredMode.REQUIRED, example = "nightly_sales_2026-11-21") String appName,
    @Schema(nullable = true) String jobKey,
    @Schema(description = "the user's explicit Spark confs") Map<String, String> conf) {}
