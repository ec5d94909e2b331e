package io.sluice.flink;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Runs a command to its end with its output (stdout + stderr) in a log file. */
final class Processes {
  private Processes() {}

  record Result(int exit, String output, long elapsedMs, Path log) {
    String tail() {
      return output.length() <= 8000 ? output : output.substring(output.length() - 8000);
    }
  }

  /**
   * Runs {@code cmd} and waits up to {@code timeout}. If it is still running then, it and every
   * process it started are killed (by pid) and the result has exit -1. Processes a command
   * deliberately leaves behind when it ends normally (daemons of a start script) are not touched.
   */
  static Result run(List<String> cmd, Map<String, String> env, Path log, Duration timeout)
      throws IOException, InterruptedException {
    Files.createDirectories(log.toAbsolutePath().getParent());
    ProcessBuilder pb =
        new ProcessBuilder(cmd)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
            .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
    pb.environment().putAll(env);
    long t0 = System.nanoTime();
    Process p = pb.start();
    int exit;
    try {
      if (p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        exit = p.exitValue();
      } else {
        exit = -1;
      }
    } finally {
      if (p.isAlive()) {
        kill(p.toHandle());
      }
    }
    long elapsed = (System.nanoTime() - t0) / 1_000_000;
    String out = Files.readString(log, StandardCharsets.UTF_8);
    if (exit == -1) {
      out += "\n[killed after " + timeout + "]";
    }
    return new Result(exit, out, elapsed, log);
  }

  /** Kills a process tree: children first, by pid. */
  static void kill(ProcessHandle root) {
    root.descendants().forEach(ProcessHandle::destroyForcibly);
    root.destroyForcibly();
    try {
      root.onExit().get(30, TimeUnit.SECONDS);
    } catch (Exception e) {
      // reported by the caller's assertion on the exit code
    }
  }
}
