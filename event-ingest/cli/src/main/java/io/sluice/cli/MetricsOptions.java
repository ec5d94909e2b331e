package io.sluice.cli;

import io.micrometer.core.instrument.binder.MeterBinder;
import io.sluice.collect.metrics.MetricsEndpoint;
import java.io.IOException;
import picocli.CommandLine.Option;

/**
 * The collectors' Prometheus endpoint settings, shared by {@code collect} and {@code poll-yarn}.
 */
final class MetricsOptions {
  @Option(
      names = "--metrics-port",
      defaultValue = "0",
      paramLabel = "PORT",
      description =
          "Serve Prometheus metrics on http://HOST:PORT/metrics; 0 turns the endpoint off "
              + "(default: ${DEFAULT-VALUE}).")
  int port;

  @Option(
      names = "--metrics-host",
      defaultValue = "127.0.0.1",
      paramLabel = "HOST",
      description =
          "Address the metrics endpoint listens on; 0.0.0.0 for every interface (default: ${DEFAULT-VALUE}).")
  String host;

  /** The endpoint serving {@code meters}, or null when it is off. */
  MetricsEndpoint start(MeterBinder meters) throws IOException {
    MetricsEndpoint endpoint = MetricsEndpoint.start(host, port, meters);
    if (endpoint != null) {
      System.err.println("metrics: http://" + host + ":" + endpoint.port() + "/metrics");
    }
    return endpoint;
  }
}
