package io.sluice.store;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Test helper: a server started as a child process that prints {@code listening on 127.0.0.1:PORT}
 * on stdout when ready; its stderr is appended to a log file. Stopped with SIGTERM (then killed if
 * it does not exit).
 */
final class ChildProcess implements AutoCloseable {
  private static final Pattern READY = Pattern.compile("listening on 127\\.0\\.0\\.1:(\\d+)");

  final Process process;
  final int port;
  final Path log;

  private ChildProcess(Process process, int port, Path log) {
    this.process = process;
    this.port = port;
    this.log = log;
  }

  /**
   * Starts {@code command} and waits for its ready line; if none comes in time, kills it and throws
   * with the log.
   */
  static ChildProcess start(String name, List<String> command, Path log, Duration readyWithin)
      throws IOException {
    Files.createDirectories(log.getParent());
    Process p =
        new ProcessBuilder(command)
            .redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()))
            .start();
    int port = awaitReadyPort(p, readyWithin);
    if (port <= 0) {
      p.destroyForcibly();
      throw new IllegalStateException(
          name + " did not start; its log " + log + ":\n" + Files.readString(log));
    }
    return new ChildProcess(p, port, log);
  }

  /**
   * The port of the first ready line on stdout; -1 if stdout ends, fails or stays silent too long.
   */
  private static int awaitReadyPort(Process p, Duration within) {
    BufferedReader out =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
    CompletableFuture<Integer> ready =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                for (String line; (line = out.readLine()) != null; ) {
                  Matcher m = READY.matcher(line);
                  if (m.find()) {
                    return Integer.parseInt(m.group(1));
                  }
                }
              } catch (IOException e) {
                // fall through
              }
              return -1;
            });
    try {
      return ready.get(within.toMillis(), TimeUnit.MILLISECONDS);
    } catch (Exception e) {
      return -1;
    }
  }

  /** SIGTERM, then wait; returns the exit code (force-kills after 30 s and returns -1). */
  int stop() throws InterruptedException {
    process.destroy();
    if (process.waitFor(30, TimeUnit.SECONDS)) {
      return process.exitValue();
    }
    process.destroyForcibly();
    process.waitFor(10, TimeUnit.SECONDS);
    return -1;
  }

  @Override
  public void close() throws InterruptedException {
    if (process.isAlive()) {
      stop();
    }
  }
}
