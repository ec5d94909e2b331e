package io.sluice.contracts.api;

import jakarta.validation.Constraint;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import jakarta.validation.GroupSequence;
import jakarta.validation.Payload;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Body of {@code POST /api/v1/tiers/outcomes}: one attempt of a routed run, reported by its driver
 * (requested and ran tier, fallback reason) or its launcher (final status). The run is named by
 * {@code submissionId} or {@code appId}; that is checked first, so a report naming neither is
 * refused for that reason.
 */
@RunReportRequest.Identified(groups = RunReportRequest.Identity.class)
@GroupSequence({RunReportRequest.Identity.class, RunReportRequest.class})
public record RunReportRequest(
    @Size(max = 200) String submissionId,
    @Size(max = 200) String appId,
    @NotNull(message = "is required, 1..100") @Min(1) @Max(100) Integer attempt,
    @NotNull(message = "is required: DRIVER or LAUNCHER")
        @Pattern(regexp = "(?i)\\s*(DRIVER|LAUNCHER)\\s*", message = "must be DRIVER or LAUNCHER")
        String source,
    @Size(max = 200) String cluster,
    @Size(max = Limits.NAME) String queue,
    @Size(max = Limits.JOB_KEY) String jobKey,
    @Pattern(
            regexp = TierRuleRequest.TIER_NAME,
            message = "must be one of " + TierRuleRequest.TIERS)
        String requestedTier,
    @Pattern(
            regexp = TierRuleRequest.TIER_NAME,
            message = "must be one of " + TierRuleRequest.TIERS)
        String ranTier,
    @Size(max = 64) String fallbackReason,
    @Size(max = 2000) String fallbackDetail,
    Long decisionMs,
    @NotNull(message = "is required: STARTED, SUCCEEDED or FAILED")
        @Pattern(
            regexp = "(?i)\\s*(STARTED|SUCCEEDED|FAILED)\\s*",
            message = "must be STARTED, SUCCEEDED or FAILED")
        String status,
    Integer exitCode) {

  /** The validation group checked before all others: the run is named. */
  public interface Identity {}

  /**
   * A report names its run by {@code submissionId} or {@code appId}; reported on {@code
   * submissionId}.
   */
  @Constraint(validatedBy = Named.class)
  @Target(ElementType.TYPE)
  @Retention(RetentionPolicy.RUNTIME)
  public @interface Identified {
    String message() default "or appId is required";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};
  }

  /** The check behind {@link Identified}. */
  public static final class Named implements ConstraintValidator<Identified, RunReportRequest> {
    @Override
    public boolean isValid(RunReportRequest r, ConstraintValidatorContext context) {
      if (r == null || !blank(r.submissionId()) || !blank(r.appId())) {
        return true;
      }
      context.disableDefaultConstraintViolation();
      context
          .buildConstraintViolationWithTemplate(context.getDefaultConstraintMessageTemplate())
          .addPropertyNode("submissionId")
          .addConstraintViolation();
      return false;
    }

    private static boolean blank(String s) {
      return s == null || s.isBlank();
    }
  }
}
