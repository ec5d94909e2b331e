package io.sluice.contracts.api;

import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import java.util.Map;

/**
 * Body of {@code POST /api/v1/submissions/launch-failures}: a launch that failed before its
 * application ran, as {@code sluice-submit} sends it when spark-submit exits non-zero and
 * tuner-service binds it: the submission Sluice answered, the job, the overlay Sluice had added
 * ({@code spark.sluice.injected.*} of the launch), spark-submit's exit status and a short detail.
 */
public record LaunchFailureReport(
    @NotBlank @Size(max = Limits.ID) @Schema(requiredMode = Schema.RequiredMode.REQUIRED)
        String submissionId,
    @NotBlank @Size(max = Limits.JOB_KEY) @Schema(requiredMode = Schema.RequiredMode.REQUIRED)
        String jobKey,
    @NotEmpty
        @Size(max = Limits.CONF_ENTRIES)
        @Schema(description = "the keys Sluice had added, with their values")
        Map<@Size(max = Limits.CONF_KEY) String, @NotNull @Size(max = Limits.CONF_VALUE) String>
            overlay,
    @NotNull @Min(1) @Max(255) @Schema(requiredMode = Schema.RequiredMode.REQUIRED, example = "1")
        Integer exitCode,
    @Size(max = 1024) @Schema(nullable = true) String detail) {}
