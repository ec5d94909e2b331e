package io.sluice.tuner.ui;

import io.sluice.store.JobFacets;
import io.sluice.store.JobQuery;
import io.sluice.store.JobSummary;
import io.sluice.store.Page;
import io.sluice.tuner.api.BadRequest;
import io.swagger.v3.oas.annotations.Operation;
import java.util.Locale;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** The UI's job list, its filter values and a job's page. */
@RestController
@RequestMapping("/api/v1/ui")
class UiJobsController {
  private final UiReads reads;

  UiJobsController(UiReads reads) {
    this.reads = reads;
  }

  @GetMapping("/jobs")
  @Operation(summary = "Jobs, filtered, sorted and paged in the store's job index")
  UiViews.Paged<UiViews.JobRow> jobs(
      @RequestParam(required = false) String q,
      @RequestParam(required = false) String cluster,
      @RequestParam(required = false) String queue,
      @RequestParam(required = false) String user,
      @RequestParam(required = false) String state,
      @RequestParam(required = false) String severity,
      @RequestParam(defaultValue = "lastRun") String sort,
      @RequestParam(defaultValue = "desc") String dir,
      @RequestParam(defaultValue = "0") int page,
      @RequestParam(defaultValue = "" + JobQuery.DEFAULT_SIZE) int size) {
    Page<JobSummary> p =
        reads.jobs(query(q, cluster, queue, user, state, severity, sort, dir, page, size));
    return new UiViews.Paged<>(
        p.total(), p.page(), p.size(), p.items().stream().map(UiViews.JobRow::of).toList());
  }

  @GetMapping("/jobs/facets")
  @Operation(summary = "The values the jobs list can be filtered by")
  JobFacets facets() {
    return reads.facets();
  }

  @GetMapping("/job")
  @Operation(
      summary =
          "A job: its runs (oldest first, at most 200), recommendations with their fate, tuning state "
              + "and its history, the pending operator trial")
  UiViews.JobPage job(@RequestParam String jobKey) {
    if (jobKey.isBlank()) {
      throw new BadRequest("jobKey", "jobKey must not be blank");
    }
    return reads.job(jobKey);
  }

  static JobQuery query(
      String q,
      String cluster,
      String queue,
      String user,
      String state,
      String severity,
      String sort,
      String dir,
      int page,
      int size) {
    String d = dir.trim().toLowerCase(Locale.ROOT);
    if (!d.equals("asc") && !d.equals("desc")) {
      throw new BadRequest("dir", "dir=" + dir + " must be asc or desc");
    }
    try {
      return new JobQuery(
          q, cluster, queue, user, state, severity, sort, d.equals("desc"), page, size);
    } catch (IllegalArgumentException e) {
      String msg = e.getMessage();
      throw new BadRequest(msg.substring(0, Math.max(0, msg.indexOf('='))), msg);
    }
  }
}
