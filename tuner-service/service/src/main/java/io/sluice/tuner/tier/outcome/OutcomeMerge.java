package io.sluice.tuner.tier.outcome;

import io.sluice.contracts.Tier;
import java.util.ArrayList;
import java.util.List;

/**
 * Merges a {@link RunReport} into what is known about its attempt, and says which counts the report
 * adds. Pure. Counting happens on transitions only, so a repeated report (a retried POST, a second
 * reporter saying the same) counts nothing: idempotent per (run, attempt).
 *
 * <ul>
 *   <li>{@code routed} — the first time the attempt is known to have asked for a push tier (tier =
 *       requested);
 *   <li>{@code ran} — the first time the tier that ran is known (tier = the one that ran);
 *   <li>{@code fell_back} — at the same moment, when it is not the requested push tier (tier =
 *       requested, reason = the fallback code, {@code UNKNOWN} if none was given);
 *   <li>{@code failed} / {@code succeeded} — the first final status (tier = the one that ran, else
 *       requested).
 * </ul>
 *
 * Fields a report does not know (null) keep their value; a known value is never replaced by another
 * one, except that a final status replaces {@code STARTED} (and the first final status stays).
 */
public final class OutcomeMerge {
  private OutcomeMerge() {}

  /** One count to add. */
  public record Count(Tier tier, String queue, Kind kind, String reason) {}

  /**
   * What the counts count. The wire names are the {@code outcome} label of {@code
   * sluice_tier_outcomes_total}.
   */
  public enum Kind {
    ROUTED("routed"),
    RAN("ran"),
    FELL_BACK("fell_back"),
    FAILED("failed"),
    SUCCEEDED("succeeded");

    private final String label;

    Kind(String label) {
      this.label = label;
    }

    public String label() {
      return label;
    }

    public static Kind ofLabel(String label) {
      for (Kind k : values()) {
        if (k.label.equals(label)) {
          return k;
        }
      }
      throw new IllegalArgumentException("unknown outcome " + label);
    }
  }

  /**
   * The attempt after the report, and the counts it adds (empty when nothing changed that counts).
   */
  public record Merged(RunOutcome outcome, List<Count> counts, boolean changed) {}

  /** The queue label of a run without a queue. */
  public static final String NO_QUEUE = "-";

  public static Merged merge(RunOutcome before, RunReport r, long now) {
    RunOutcome b =
        before != null
            ? before
            : new RunOutcome(
                r.runKey(),
                r.attempt(),
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                RunReport.Status.STARTED,
                null,
                null,
                now,
                now);
    Tier requested = first(b.requestedTier(), r.requestedTier());
    Tier ran = first(b.ranTier(), r.ranTier());
    RunReport.Status status = b.status();
    Integer exit = b.exitCode();
    RunReport.Source statusSource = b.statusSource();
    if (!status.isFinal() && r.status() != null && r.status().isFinal()) {
      status = r.status();
      exit = r.exitCode();
      statusSource = r.source();
    }
    String reason = first(b.fallbackReason(), blankToNull(r.fallbackReason()));
    RunOutcome after =
        new RunOutcome(
            b.runKey(),
            b.attempt(),
            first(b.submissionId(), blankToNull(r.submissionId())),
            first(b.appId(), blankToNull(r.appId())),
            first(b.cluster(), blankToNull(r.cluster())),
            first(b.queue(), blankToNull(r.queue())),
            first(b.jobKey(), blankToNull(r.jobKey())),
            requested,
            ran,
            reason,
            first(b.fallbackDetail(), blankToNull(r.fallbackDetail())),
            first(b.decisionMs(), r.decisionMs()),
            status,
            exit,
            statusSource,
            b.firstAt(),
            now);

    List<Count> counts = new ArrayList<>();
    String queue = after.queue() == null ? NO_QUEUE : after.queue();
    boolean routedNow = requested != null && requested.isPush() && b.requestedTier() == null;
    if (routedNow) {
      counts.add(new Count(requested, queue, Kind.ROUTED, ""));
    }
    if (ran != null && b.ranTier() == null) {
      counts.add(new Count(ran, queue, Kind.RAN, ""));
      if (after.fellBack()) {
        counts.add(
            new Count(requested, queue, Kind.FELL_BACK, reason == null ? "UNKNOWN" : reason));
      }
    } else if (ran != null && b.ranTier() != null && routedNow && after.fellBack()) {
      // the tier that ran was known before the requested one: the fallback shows only now
      counts.add(new Count(requested, queue, Kind.FELL_BACK, reason == null ? "UNKNOWN" : reason));
    }
    if (status.isFinal() && !b.status().isFinal() && after.statusTier() != null) {
      counts.add(
          new Count(
              after.statusTier(),
              queue,
              status == RunReport.Status.FAILED ? Kind.FAILED : Kind.SUCCEEDED,
              ""));
    }
    return new Merged(
        after, List.copyOf(counts), before == null || !after.equals(withTime(b, now)));
  }

  private static RunOutcome withTime(RunOutcome o, long now) {
    return new RunOutcome(
        o.runKey(),
        o.attempt(),
        o.submissionId(),
        o.appId(),
        o.cluster(),
        o.queue(),
        o.jobKey(),
        o.requestedTier(),
        o.ranTier(),
        o.fallbackReason(),
        o.fallbackDetail(),
        o.decisionMs(),
        o.status(),
        o.exitCode(),
        o.statusSource(),
        o.firstAt(),
        now);
  }

  private static <T> T first(T a, T b) {
    return a != null ? a : b;
  }

  private static String blankToNull(String s) {
    return s == null || s.isBlank() ? null : s.trim();
  }
}
