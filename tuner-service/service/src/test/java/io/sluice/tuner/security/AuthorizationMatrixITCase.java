package io.sluice.tuner.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.model.AppRun;
import io.sluice.tuner.jobs.OperatorTrials;
import io.sluice.tuner.testing.Http;
import io.sluice.tuner.testing.ServiceOnH2;
import io.sluice.tuner.testing.StoreRows;
import io.sluice.tuner.testing.TestCredentials;
import io.sluice.tuner.throttle.LiveApps;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.test.autoconfigure.actuate.observability.AutoConfigureObservability;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.servlet.mvc.method.RequestMappingInfo;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;

/**
 * Every endpoint of the service × anonymous, viewer, operator, admin and reporter: the expected
 * status of each call, and refused writes change nothing in the store. The endpoints are enumerated
 * from Spring's handler mappings, so a new endpoint without a row here fails {@link
 * #everyEndpointHasAnExpectation}.
 */
@AutoConfigureObservability
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "server.address=127.0.0.1",
      "sluice.tuner.submission-timeout=10s",
      "sluice.test.context=AuthorizationMatrixITCase"
    }) // its own context: the store is in this class's temp dir
class AuthorizationMatrixITCase extends ServiceOnH2 {
  enum Who {
    ANONYMOUS(null),
    VIEWER(TestCredentials.VIEWER),
    OPERATOR(TestCredentials.OPERATOR),
    ADMIN(TestCredentials.ADMIN),
    REPORTER(TestCredentials.REPORTER);

    final String authorization;

    Who(String authorization) {
      this.authorization = authorization;
    }
  }

  static final Set<Who> ALL = EnumSet.allOf(Who.class);
  static final Set<Who> SIGNED_IN = EnumSet.of(Who.VIEWER, Who.OPERATOR, Who.ADMIN, Who.REPORTER);
  static final Set<Who> READERS = EnumSet.of(Who.VIEWER, Who.OPERATOR, Who.ADMIN);
  static final Set<Who> OPERATORS = EnumSet.of(Who.OPERATOR, Who.ADMIN);
  static final Set<Who> ADMINS = EnumSet.of(Who.ADMIN);
  static final Set<Who> REPORTERS = EnumSet.of(Who.REPORTER, Who.ADMIN);
  static final Set<Who> NOBODY = EnumSet.noneOf(Who.class);
  static final String JOB = "matrix-job";

  /**
   * One row: the mapping ({@code METHOD pattern}, {@code *} for any method), a request to send, who
   * may call it and the status they get. Callers not allowed get 401 (anonymous) or 403.
   */
  record Row(
      String method, String pattern, String path, String body, Set<Who> allowed, int status) {
    String key() {
      return method + " " + pattern;
    }
  }

  static final List<Row> ROWS =
      List.of(
          new Row(
              "GET",
              "/api/v1/jobs/history",
              "/api/v1/jobs/history?jobKey=" + JOB,
              null,
              READERS,
              200),
          new Row(
              "GET",
              "/api/v1/jobs/recommendation",
              "/api/v1/jobs/recommendation?jobKey=" + JOB,
              null,
              READERS,
              200),
          new Row(
              "POST",
              "/api/v1/jobs/freeze",
              "/api/v1/jobs/freeze?jobKey=" + JOB,
              null,
              OPERATORS,
              200),
          new Row(
              "POST",
              "/api/v1/jobs/unfreeze",
              "/api/v1/jobs/unfreeze?jobKey=" + JOB,
              null,
              OPERATORS,
              200),
          new Row(
              "POST",
              "/api/v1/jobs/trial",
              "/api/v1/jobs/trial?jobKey=" + JOB,
              "{\"spark.sql.shuffle.partitions\":\"100\"}",
              OPERATORS,
              200),
          new Row(
              "DELETE",
              "/api/v1/jobs/trial",
              "/api/v1/jobs/trial?jobKey=" + JOB,
              null,
              OPERATORS,
              200),
          new Row(
              "POST",
              "/api/v1/submissions",
              "/api/v1/submissions",
              "{\"cluster\":\"c\",\"appName\":\"m\",\"jobKey\":\"" + JOB + "\",\"conf\":{}}",
              REPORTERS,
              200),
          new Row(
              "POST",
              "/api/v1/submissions/launch-failures",
              "/api/v1/submissions/launch-failures",
              "{\"submissionId\":\"s-m\",\"jobKey\":\""
                  + JOB
                  + "\",\"overlay\":{\"spark.sql.shuffle.partitions\":"
                  + "\"100\"},\"exitCode\":1}",
              REPORTERS,
              200),
          new Row(
              "POST",
              "/api/v1/throttle/apps",
              "/api/v1/throttle/apps",
              "{\"appId\":\"app-1\",\"submissionId\":\"no-such-submission\"}",
              REPORTERS,
              404),
          new Row(
              "GET",
              "/api/v1/throttle/priorities",
              "/api/v1/throttle/priorities",
              null,
              EnumSet.of(Who.VIEWER, Who.OPERATOR, Who.ADMIN, Who.REPORTER),
              200),
          new Row("GET", "/api/v1/tiers/rules", "/api/v1/tiers/rules", null, READERS, 200),
          new Row(
              "PUT",
              "/api/v1/tiers/rules/{id}",
              "/api/v1/tiers/rules/matrix",
              "{\"queue\":\"q\",\"tier\":\"CELEBORN\",\"percent\":1}",
              ADMINS,
              200),
          new Row(
              "DELETE",
              "/api/v1/tiers/rules/{id}",
              "/api/v1/tiers/rules/matrix",
              null,
              ADMINS,
              200),
          new Row(
              "PUT",
              "/api/v1/tiers/denies/{id}",
              "/api/v1/tiers/denies/matrix",
              "{\"queue\":\"q\"}",
              ADMINS,
              200),
          new Row(
              "DELETE",
              "/api/v1/tiers/denies/{id}",
              "/api/v1/tiers/denies/matrix",
              null,
              ADMINS,
              200),
          new Row("GET", "/api/v1/tiers/audit", "/api/v1/tiers/audit", null, READERS, 200),
          new Row(
              "GET",
              "/api/v1/tiers/decisions",
              "/api/v1/tiers/decisions?jobKey=" + JOB,
              null,
              READERS,
              200),
          new Row("GET", "/api/v1/tiers/capacity", "/api/v1/tiers/capacity", null, READERS, 200),
          new Row(
              "POST",
              "/api/v1/tiers/preview",
              "/api/v1/tiers/preview",
              "{\"jobKey\":\"" + JOB + "\"}",
              READERS,
              200),
          new Row(
              "POST",
              "/api/v1/tiers/outcomes",
              "/api/v1/tiers/outcomes",
              "{\"submissionId\":\"s-1\",\"attempt\":1,\"source\":\"LAUNCHER\",\"status\":\"STARTED\"}",
              REPORTERS,
              200),
          new Row("GET", "/api/v1/tiers/outcomes", "/api/v1/tiers/outcomes", null, READERS, 200),
          new Row("GET", "/api/v1/tiers/alerts", "/api/v1/tiers/alerts", null, READERS, 200),
          new Row("GET", "/api/v1/audit", "/api/v1/audit?limit=5", null, READERS, 200),
          new Row(
              "POST",
              "/api/v1/session",
              "/api/v1/session",
              "{\"username\":\"vera\",\"password\":\"vera-pw\"}",
              ALL,
              200),
          new Row("DELETE", "/api/v1/session", "/api/v1/session", null, SIGNED_IN, 204),
          new Row("GET", "/api/v1/me", "/api/v1/me", null, SIGNED_IN, 200),
          // the web UI's reads
          new Row("GET", "/api/v1/ui/overview", "/api/v1/ui/overview?from=0", null, READERS, 200),
          new Row(
              "GET",
              "/api/v1/ui/tiers/summary",
              "/api/v1/ui/tiers/summary?from=0",
              null,
              READERS,
              200),
          new Row("GET", "/api/v1/ui/jobs", "/api/v1/ui/jobs?q=matrix", null, READERS, 200),
          new Row("GET", "/api/v1/ui/jobs/facets", "/api/v1/ui/jobs/facets", null, READERS, 200),
          new Row("GET", "/api/v1/ui/job", "/api/v1/ui/job?jobKey=" + JOB, null, READERS, 200),
          new Row(
              "GET",
              "/api/v1/ui/run",
              "/api/v1/ui/run?cluster=none&appId=app-none",
              null,
              READERS,
              404),
          new Row(
              "GET",
              "/api/v1/ui/diff",
              "/api/v1/ui/diff?cluster=none&a=app-a&b=app-b",
              null,
              READERS,
              404),
          new Row(
              "GET", "/api/v1/ui/throttle/nodes", "/api/v1/ui/throttle/nodes", null, READERS, 200),
          new Row(
              "GET",
              "/api/v1/ui/throttle/events",
              "/api/v1/ui/throttle/events",
              null,
              READERS,
              200),
          new Row(
              "GET",
              "/api/v1/ui/throttle/timeline",
              "/api/v1/ui/throttle/timeline",
              null,
              READERS,
              200),
          new Row(
              "GET", "/api/v1/ui/throttle/apps", "/api/v1/ui/throttle/apps", null, READERS, 200),
          new Row("GET", "/v3/api-docs", "/v3/api-docs", null, ALL, 200),
          new Row("GET", "/v3/api-docs.yaml", "/v3/api-docs.yaml", null, ALL, 200),
          new Row(
              "GET", "/v3/api-docs/swagger-config", "/v3/api-docs/swagger-config", null, ALL, 200),
          new Row("GET", "/swagger-ui.html", "/swagger-ui.html", null, ALL, 302),
          // Boot's error page is for error dispatches only: a direct request is refused
          new Row("*", "/error", "/error", null, NOBODY, 0),
          // actuator endpoints (their own handler mapping)
          new Row("GET", "/actuator/health", "/actuator/health", null, ALL, 200),
          new Row("GET", "/actuator/prometheus", "/actuator/prometheus", null, READERS, 200),
          // nothing mapped: refused before anyone looks
          new Row("POST", "/api/v1/nothing", "/api/v1/nothing", "{}", NOBODY, 0),
          new Row(
              "PATCH", "/api/v1/tiers/rules/{id}", "/api/v1/tiers/rules/matrix", "{}", NOBODY, 0));

  @Autowired
  @Qualifier("requestMappingHandlerMapping")
  RequestMappingHandlerMapping mappings;

  @Autowired OperatorTrials trials;

  @Autowired LiveApps liveApps;

  @BeforeAll
  static void fill() {
    AppRun tiny = io.sluice.tuner.StoreFixtures.fold("tiny_blocks-lz4");
    seed(List.of(io.sluice.tuner.StoreFixtures.variant(tiny, JOB, 1, Map.of(), 1, 1)));
  }

  @Test
  void everyEndpointHasAnExpectation() {
    Set<String> mapped = new TreeSet<>();
    for (RequestMappingInfo info : mappings.getHandlerMethods().keySet()) {
      Set<RequestMethod> methods = info.getMethodsCondition().getMethods();
      for (String pattern : info.getPatternValues()) {
        if (methods.isEmpty()) {
          mapped.add("* " + pattern);
        }
        methods.forEach(m -> mapped.add(m.name() + " " + pattern));
      }
    }
    Set<String> expected = new TreeSet<>();
    ROWS.forEach(r -> expected.add(r.key()));
    assertThat(mapped)
        .as("endpoints without a row in the authorisation matrix")
        .isSubsetOf(expected);
  }

  @Test
  void everyCallerGetsTheExpectedStatusAndRefusedWritesChangeNothing() {
    Map<String, String> before = state();
    List<String> wrong = new ArrayList<>();
    // every refused call first, then the state must be what it was
    for (Row r : ROWS) {
      for (Who w : Who.values()) {
        if (!r.allowed().contains(w)) {
          int want = w == Who.ANONYMOUS ? 401 : 403;
          int got = send(w, r).status();
          if (got != want) {
            wrong.add(w + " " + r.method() + " " + r.path() + ": " + got + ", expected " + want);
          }
        }
      }
    }
    assertThat(state()).as("store and in-memory state after the refused calls").isEqualTo(before);
    for (Who w : Who.values()) {
      for (Row r : ROWS) {
        if (r.allowed().contains(w)) {
          Http.Answer a = send(w, r);
          if (a.status() != r.status()) {
            wrong.add(
                w
                    + " "
                    + r.method()
                    + " "
                    + r.path()
                    + ": "
                    + a.status()
                    + ", expected "
                    + r.status()
                    + " "
                    + a.body());
          }
        }
      }
    }
    assertThat(wrong).as("calls with an unexpected status").isEmpty();
  }

  private Http.Answer send(Who w, Row r) {
    String method = "*".equals(r.method()) ? "POST" : r.method();
    return http.as(w.authorization).send(method, r.path(), r.body());
  }

  /** Every table of the store, the pending trials and the live apps. */
  private Map<String, String> state() {
    // tables without rows are left out: background work (the outcome totals' restore) may create an
    // empty one
    // while the refused calls run, which is no change of state
    Map<String, String> s = new LinkedHashMap<>(StoreRows.dump(storeUrl()));
    s.values().removeIf(String::isEmpty);
    s.put("trial", String.valueOf(trials.peek(JOB)));
    s.put("liveApps", String.valueOf(liveApps.apps()) + liveApps.pendingCount());
    return s;
  }
}
