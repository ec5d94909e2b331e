package io.sluice.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * The distribution unpacked into a clean directory, and its launchers run as real processes:
 * started from {@code bin/}, waited on by condition (never by a fixed sleep) and stopped by PID
 * with SIGTERM.
 */
final class Dist implements AutoCloseable {

  /**
   * Generous: the suite runs on a loaded two-core machine, where tuner-service alone can take
   * minutes to start.
   */
  static final Duration DEADLINE = Duration.ofMinutes(6);

  final Path work;
  final Path home;
  private final List<Process> started = new ArrayList<>();
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private Dist(Path work, Path home) {
    this.work = work;
    this.home = home;
  }

  /**
   * Unpacks the tarball {@code mvn package} built (system property sluice.dist.tarball) into {@code
   * work}.
   */
  static Dist unpack(Path work) throws IOException, InterruptedException {
    Path tarball = Path.of(System.getProperty("sluice.dist.tarball"));
    assertThat(tarball).as("the tarball built by `mvn package`").isRegularFile();
    Process tar =
        new ProcessBuilder("tar", "-xzf", tarball.toString(), "-C", work.toString())
            .redirectErrorStream(true)
            .start();
    assertThat(tar.waitFor(5, TimeUnit.MINUTES)).as("tar finished").isTrue();
    assertThat(tar.exitValue()).as(new String(tar.getInputStream().readAllBytes())).isZero();
    return new Dist(work, work.resolve(System.getProperty("sluice.dist.name")));
  }

  static Path repoRoot() {
    return Path.of(System.getProperty("sluice.root"));
  }

  /**
   * Runs {@code bin/<launcher> args...} in {@code work} with extra environment; output goes to
   * {@code <name>.log}.
   */
  Process start(String name, Map<String, String> env, String launcher, String... args)
      throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add(home.resolve("bin").resolve(launcher).toString());
    cmd.addAll(List.of(args));
    ProcessBuilder pb =
        new ProcessBuilder(cmd)
            .directory(work.toFile())
            .redirectErrorStream(true)
            .redirectOutput(log(name).toFile());
    pb.environment().putAll(env);
    Process p = pb.start();
    started.add(p);
    return p;
  }

  Path log(String name) {
    return work.resolve(name + ".log");
  }

  /** SIGTERM by PID, then waits (SIGKILL after a minute); returns the exit status. */
  static int stop(Process p) throws InterruptedException {
    if (p.isAlive()) {
      p.destroy();
      if (!p.waitFor(60, TimeUnit.SECONDS)) {
        p.destroyForcibly().waitFor();
      }
    }
    return p.exitValue();
  }

  @FunctionalInterface
  interface Check {
    boolean ok() throws Exception;
  }

  /**
   * Polls {@code check} until it holds; fails if {@code process} exits first or the deadline
   * passes.
   */
  static void await(String what, Process process, Check check) throws Exception {
    long deadline = System.nanoTime() + DEADLINE.toNanos();
    Exception last = null;
    while (System.nanoTime() < deadline) {
      try {
        if (check.ok()) {
          return;
        }
      } catch (IOException e) {
        last = e;
      }
      if (process != null && !process.isAlive()) {
        throw new AssertionError(what + ": the process exited with " + process.exitValue());
      }
      Thread.sleep(250);
    }
    throw new AssertionError(
        "waited " + DEADLINE + " in vain for " + what + (last == null ? "" : ": " + last));
  }

  /** GET with an optional bearer token; anything but 200 is an IOException naming the status. */
  String get(URI uri, String token) throws IOException, InterruptedException {
    return send(HttpRequest.newBuilder(uri).GET(), token);
  }

  /**
   * POST of a JSON body with a bearer token; anything but 200 is an IOException naming the status
   * and body.
   */
  String postJson(URI uri, String token, String json) throws IOException, InterruptedException {
    return send(
        HttpRequest.newBuilder(uri)
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(json)),
        token);
  }

  private String send(HttpRequest.Builder b, String token)
      throws IOException, InterruptedException {
    b.timeout(Duration.ofSeconds(10));
    if (token != null) {
      b.header("Authorization", "Bearer " + token);
    }
    HttpRequest request = b.build();
    HttpResponse<String> r = http.send(request, HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() != 200) {
      throw new IOException(
          request.method() + " " + request.uri() + " answered " + r.statusCode() + ": " + r.body());
    }
    return r.body();
  }

  /**
   * Rewrites the given keys of a conf file in the unpacked distribution, as an operator edits it.
   */
  void editConf(String file, Map<String, String> values) throws IOException {
    Path p = home.resolve("conf").resolve(file);
    List<String> out = new ArrayList<>();
    Set<String> done = new HashSet<>();
    for (String line : Files.readAllLines(p)) {
      String key =
          line.contains("=") && !line.startsWith("#")
              ? line.substring(0, line.indexOf('=')).trim()
              : null;
      if (key != null && values.containsKey(key)) {
        out.add(key + " = " + values.get(key));
        done.add(key);
      } else {
        out.add(line);
      }
    }
    values.forEach(
        (k, v) -> {
          if (!done.contains(k)) {
            out.add(k + " = " + v);
          }
        });
    Files.write(p, out);
  }

  static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  @Override
  public void close() throws InterruptedException {
    for (Process p : started) {
      stop(p);
    }
  }
}
