package io.sluice.submit.plugin;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.sluice.submit.FakeTuner;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The app reporter against a loopback HTTP server that answers only when the test lets it. */
class SluiceAppReporterPluginTest {
  private final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
  private final PrintStream err = new PrintStream(errBytes, true, StandardCharsets.UTF_8);
  private final List<String> bodies = new CopyOnWriteArrayList<>();
  private final CountDownLatch answer = new CountDownLatch(1);
  private final CountDownLatch received = new CountDownLatch(1);
  private volatile int status = 201;
  private HttpServer server;

  @BeforeEach
  void start() throws Exception {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext(
        "/api/v1/throttle/apps",
        ex -> {
          try (InputStream in = ex.getRequestBody()) {
            bodies.add(
                ex.getRequestMethod()
                    + " "
                    + new String(in.readAllBytes(), StandardCharsets.UTF_8));
          }
          received.countDown();
          try {
            answer.await(10, TimeUnit.SECONDS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          ex.sendResponseHeaders(status, -1);
          ex.close();
        });
    server.createContext(
        "/api/v1/tiers/outcomes",
        ex -> {
          try (InputStream in = ex.getRequestBody()) {
            bodies.add(
                ex.getRequestMethod()
                    + " "
                    + ex.getRequestURI().getPath()
                    + " "
                    + new String(in.readAllBytes(), StandardCharsets.UTF_8));
          }
          ex.sendResponseHeaders(status, -1);
          ex.close();
        });
    server.start();
  }

  @AfterEach
  void stop() {
    answer.countDown();
    server.stop(0);
  }

  private String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  private String err() {
    return errBytes.toString(StandardCharsets.UTF_8);
  }

  @Test
  void reportsAppIdAndSubmissionWithoutWaitingForTheAnswer() throws Exception {
    SluiceAppReporterPlugin.Driver d = new SluiceAppReporterPlugin.Driver(Map.of(), err);
    Thread t =
        d.report(
            "app-20261122-0001",
            Map.of("spark.sluice.tuner.url", url(), "spark.sluice.submission.id", "sub-1"));
    // report() has returned while the server still holds the request unanswered
    assertThat(received.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(t.isAlive()).isTrue();
    assertThat(t.isDaemon()).isTrue();
    answer.countDown();
    t.join(10_000);
    assertThat(bodies)
        .containsExactly("POST {\"appId\":\"app-20261122-0001\",\"submissionId\":\"sub-1\"}");
    assertThat(err()).contains("app-20261122-0001 reported as submission sub-1");
  }

  @Test
  void theUrlMayComeFromTheEnvironmentAndAnUnknownSubmissionIsOnlyALogLine() throws Exception {
    status = 404;
    answer.countDown();
    SluiceAppReporterPlugin.Driver d =
        new SluiceAppReporterPlugin.Driver(Map.of("SLUICE_TUNER_URL", url()), err);
    Thread t = d.report("app-2", Map.of("spark.sluice.submission.id", "gone"));
    t.join(10_000);
    assertThat(bodies).containsExactly("POST {\"appId\":\"app-2\",\"submissionId\":\"gone\"}");
    assertThat(err())
        .contains("answered HTTP 404 for app-2; the ESS throttle gives it the default priority");
  }

  @Test
  void withoutSubmissionOrUrlNothingIsSent() {
    SluiceAppReporterPlugin.Driver d = new SluiceAppReporterPlugin.Driver(Map.of(), err);
    assertThat(d.report("app-3", Map.of("spark.sluice.tuner.url", url()))).isNull();
    assertThat(d.report("app-3", Map.of("spark.sluice.submission.id", "s"))).isNull();
    assertThat(
            d.report(
                null, Map.of("spark.sluice.tuner.url", url(), "spark.sluice.submission.id", "s")))
        .isNull();
    assertThat(
            d.report(
                "app-3",
                Map.of("spark.sluice.tuner.url", "ftp://x", "spark.sluice.submission.id", "s")))
        .isNull();
    assertThat(bodies).isEmpty();
    assertThat(err())
        .contains(
            "not reported (java.lang.IllegalArgumentException: spark.sluice.tuner.url must be http");
  }

  @Test
  void aDeadServiceIsOnlyALogLine() throws Exception {
    SluiceAppReporterPlugin.Driver d = new SluiceAppReporterPlugin.Driver(Map.of(), err);
    Thread t =
        d.report(
            "app-4",
            Map.of(
                "spark.sluice.tuner.url", FakeTuner.deadUrl(), "spark.sluice.submission.id", "s"));
    t.join(10_000);
    assertThat(t.isAlive()).isFalse();
    assertThat(err())
        .contains("app-4 not reported (")
        .contains("the ESS throttle gives it the default priority");
  }

  @Test
  void theTierOutcomeOfARoutedJobIsReportedAndOthersAreNot() throws Exception {
    status = 200;
    SluiceAppReporterPlugin.Driver d = new SluiceAppReporterPlugin.Driver(Map.of(), err);
    assertThat(
            d.reportTier(
                "app-5", 1, Map.of("spark.sluice.tuner.url", url(), "spark.sluice.tier", "ESS")))
        .isNull();
    Thread t =
        d.reportTier(
            "app-5",
            2,
            Map.of(
                "spark.sluice.tuner.url",
                url(),
                "spark.sluice.tier",
                "UNIFFLE",
                "spark.sluice.tier.outcome",
                "ESS",
                "spark.sluice.tier.fallbackReason",
                "LATER_ATTEMPT"));
    t.join(10_000);
    assertThat(t.isDaemon()).isTrue();
    assertThat(bodies)
        .containsExactly(
            "POST /api/v1/tiers/outcomes {\"appId\":\"app-5\",\"attempt\":2,"
                + "\"source\":\"DRIVER\",\"cluster\":\"default\",\"requestedTier\":\"UNIFFLE\",\"ranTier\":\"ESS\","
                + "\"fallbackReason\":\"LATER_ATTEMPT\",\"status\":\"STARTED\"}");
    assertThat(err()).contains("app-5: tier outcome reported (STARTED, attempt 2)");
    assertThat(SluiceAppReporterPlugin.Driver.attempt("2")).isEqualTo(2);
    assertThat(SluiceAppReporterPlugin.Driver.attempt(null)).isEqualTo(1);
    assertThat(SluiceAppReporterPlugin.Driver.attempt("x")).isEqualTo(1);
  }

  @Test
  void shutdownLetsTheReportInFlightFinish() throws Exception {
    SluiceAppReporterPlugin.Driver d = new SluiceAppReporterPlugin.Driver(Map.of(), err);
    Thread t =
        d.report(
            "app-6",
            Map.of("spark.sluice.tuner.url", url(), "spark.sluice.submission.id", "sub-6"));
    assertThat(received.await(10, TimeUnit.SECONDS)).isTrue();
    Thread stopper = new Thread(d::shutdown);
    stopper.start();
    // the driver's stop waits while the service has not answered yet
    stopper.join(300);
    assertThat(stopper.isAlive()).isTrue();
    answer.countDown();
    stopper.join(10_000);
    assertThat(stopper.isAlive()).isFalse();
    assertThat(t.isAlive()).isFalse();
    assertThat(err()).contains("app-6 reported as submission sub-6");
  }

  @Test
  void shutdownWithNothingSentReturnsAtOnce() throws Exception {
    SluiceAppReporterPlugin.Driver d = new SluiceAppReporterPlugin.Driver(Map.of(), err);
    Thread stopper = new Thread(d::shutdown);
    stopper.start();
    stopper.join(10_000);
    assertThat(stopper.isAlive()).isFalse();
    assertThat(bodies).isEmpty();
  }

  @Test
  void theDeadlineIsTheClientTimeoutButNeverUnderThreeSeconds() {
    java.net.URI u = java.net.URI.create(url());
    Map<String, String> none = Map.of();
    assertThat(
            SluiceAppReporterPlugin.Driver.deadline(
                io.sluice.submit.client.TunerSettings.resolve(
                    Map.of("spark.sluice.tuner.url", u.toString()), none)))
        .isEqualTo(java.time.Duration.ofSeconds(3));
    assertThat(
            SluiceAppReporterPlugin.Driver.deadline(
                io.sluice.submit.client.TunerSettings.resolve(
                    Map.of(
                        "spark.sluice.tuner.url",
                        u.toString(),
                        "spark.sluice.tuner.timeoutMs",
                        "20000"),
                    none)))
        .isEqualTo(java.time.Duration.ofSeconds(20));
  }
}
