package io.sluice.tuner.tier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.contracts.Tier;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class AdmissionTest {
  static final long GIB = 1L << 30;
  static final TierCapacity FREE_100 =
      new TierCapacity(100 * GIB, 400 * GIB, true, "configuration");
  static final AdmissionPolicy HALF_NO_CAP =
      new AdmissionPolicy(0, 0.5, AdmissionPolicy.UnknownJobs.REFUSE, 0, 0);

  @Test
  void volumeIsTheP90OfPerRunPeakStageWrites() {
    // peaks per run: the largest stage of each run
    List<io.sluice.model.AppRun> runs =
        List.of(
            Runs.run("j", "q", 3, 5, 40, 7),
            Runs.run("j", "q", 2, 10),
            Runs.run("j", "q", 1, 1, 2));
    JobVolume v = JobVolume.of(runs, 10);
    assertThat(v).isEqualTo(new JobVolume(3, 40, 40));
    // only the newest maxRuns count
    assertThat(JobVolume.of(runs, 2)).isEqualTo(new JobVolume(2, 40, 40));
    assertThat(JobVolume.of(runs.subList(1, 3), 10)).isEqualTo(new JobVolume(2, 10, 10));
    // nearest rank: 10 peaks 1..10 → the 9th; 20 peaks → the 18th
    assertThat(
            JobVolume.ofPeaks(IntStream.rangeClosed(1, 10).mapToLong(i -> i).toArray())
                .p90PeakBytes())
        .isEqualTo(9);
    assertThat(
            JobVolume.ofPeaks(IntStream.rangeClosed(1, 20).mapToLong(i -> i).toArray())
                .p90PeakBytes())
        .isEqualTo(18);
    assertThat(JobVolume.of(List.of(), 10).known()).isFalse();
  }

  @Test
  void aJobThatFitsTheFreeShareIsAdmitted() {
    AdmissionVerdict v =
        Admission.decide(
            Tier.CELEBORN, "j", new JobVolume(5, 50 * GIB, 60 * GIB), FREE_100, HALF_NO_CAP);
    assertThat(v.admitted()).isTrue();
    assertThat(v.reason())
        .isEqualTo(
            "p90 peak stage shuffle write 50.0 GiB over 5 runs fits CELEBORN: free "
                + "100.0 GiB (configuration), a job may take 50.0 GiB");
  }

  @Test
  void aJobLargerThanItsShareOfTheFreeCapacityIsRefusedAndToldWhy() {
    AdmissionVerdict v =
        Admission.decide(
            Tier.CELEBORN, "j", new JobVolume(1, 50 * GIB + 1, 0), FREE_100, HALF_NO_CAP);
    assertThat(v.admitted()).isFalse();
    assertThat(v.reason())
        .isEqualTo(
            "p90 peak stage shuffle write 50.0 GiB over 1 run does not fit CELEBORN: free "
                + "100.0 GiB (configuration), a job may take 50.0 GiB (50.00 % of it)");
  }

  @Test
  void thePerJobCapRefusesEvenWhenThereIsRoom() {
    AdmissionPolicy cap =
        new AdmissionPolicy(20 * GIB, 1.0, AdmissionPolicy.UnknownJobs.REFUSE, 0, 0);
    assertThat(
            Admission.decide(Tier.UNIFFLE, "j", new JobVolume(3, 20 * GIB, 0), FREE_100, cap)
                .admitted())
        .isTrue();
    AdmissionVerdict v =
        Admission.decide(Tier.UNIFFLE, "j", new JobVolume(3, 21 * GIB, 0), FREE_100, cap);
    assertThat(v.admitted()).isFalse();
    assertThat(v.reason())
        .isEqualTo(
            "p90 peak stage shuffle write 21.0 GiB over 3 runs exceeds the per-job cap "
                + "20.0 GiB of UNIFFLE");
  }

  @Test
  void anUnhealthyTierTakesNobody() {
    TierCapacity down =
        new TierCapacity(100 * GIB, 0, false, "metrics http://m/ (0 of 3 workers available)");
    AdmissionVerdict v =
        Admission.decide(Tier.CELEBORN, "j", new JobVolume(1, 1, 1), down, HALF_NO_CAP);
    assertThat(v.admitted()).isFalse();
    assertThat(v.reason())
        .isEqualTo("CELEBORN is unhealthy (metrics http://m/ (0 of 3 workers available))");
  }

  @Test
  void unknownJobsAreRefusedByDefault() {
    AdmissionVerdict v =
        Admission.decide(Tier.SPARK_PUSH, "j", JobVolume.UNKNOWN, FREE_100, HALF_NO_CAP);
    assertThat(v.admitted()).isFalse();
    assertThat(v.reason())
        .isEqualTo(
            "no history for the job: SPARK_PUSH admits only jobs with runs in the store "
                + "(unknown-jobs=REFUSE)");
  }

  @Test
  void unknownJobsAdmittedIfRoomNeedTheMinimumFreeAndTheirBucket() {
    AdmissionPolicy all =
        new AdmissionPolicy(0, 0.5, AdmissionPolicy.UnknownJobs.ADMIT_IF_ROOM, 200 * GIB, 100);
    AdmissionVerdict tight = Admission.decide(Tier.CELEBORN, "j", JobVolume.UNKNOWN, FREE_100, all);
    assertThat(tight.admitted()).isFalse();
    assertThat(tight.reason())
        .isEqualTo(
            "no history for the job and CELEBORN has free 100.0 GiB (configuration), "
                + "below the 200.0 GiB required for unknown jobs");
    AdmissionPolicy roomy =
        new AdmissionPolicy(0, 0.5, AdmissionPolicy.UnknownJobs.ADMIT_IF_ROOM, 50 * GIB, 100);
    assertThat(Admission.decide(Tier.CELEBORN, "j", JobVolume.UNKNOWN, FREE_100, roomy).admitted())
        .isTrue();
    AdmissionPolicy none =
        new AdmissionPolicy(0, 0.5, AdmissionPolicy.UnknownJobs.ADMIT_IF_ROOM, 50 * GIB, 0);
    AdmissionVerdict out = Admission.decide(Tier.CELEBORN, "j", JobVolume.UNKNOWN, FREE_100, none);
    assertThat(out.admitted()).isFalse();
    assertThat(out.reason())
        .startsWith("no history for the job; unknown jobs are admitted to CELEBORN at 0.00 %");
    // at 40 %, exactly the jobs whose bucket under "unknown-CELEBORN" is below 40 get in
    AdmissionPolicy some =
        new AdmissionPolicy(0, 0.5, AdmissionPolicy.UnknownJobs.ADMIT_IF_ROOM, 0, 40);
    IntStream.range(0, 200)
        .mapToObj(i -> "job-" + i)
        .forEach(
            j ->
                assertThat(
                        Admission.decide(Tier.CELEBORN, j, JobVolume.UNKNOWN, FREE_100, some)
                            .admitted())
                    .isEqualTo(Buckets.of("unknown-CELEBORN", j) < 40));
  }

  @Test
  void policiesRejectBadLimitsNamingThem() {
    assertThatThrownBy(() -> new AdmissionPolicy(0, 0, AdmissionPolicy.UnknownJobs.REFUSE, 0, 0))
        .isInstanceOfSatisfying(
            InvalidTierInput.class, e -> assertThat(e.field()).isEqualTo("max-free-share"));
    assertThatThrownBy(() -> new AdmissionPolicy(-1, 0.5, AdmissionPolicy.UnknownJobs.REFUSE, 0, 0))
        .isInstanceOfSatisfying(
            InvalidTierInput.class, e -> assertThat(e.field()).isEqualTo("per-job-cap"));
    assertThatThrownBy(
            () -> new AdmissionPolicy(0, 0.5, AdmissionPolicy.UnknownJobs.REFUSE, 0, 101))
        .isInstanceOfSatisfying(
            InvalidTierInput.class, e -> assertThat(e.field()).isEqualTo("unknown-percent"));
  }
}
