package io.sluice.submit;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Runs deploy/bin/sluice-submit with the built client jar; kills what it started. */
final class Launcher {
  static final Path ROOT = Path.of(System.getProperty("sluice.root", "../.."));
  static final Path SCRIPT = ROOT.resolve("deploy/bin/sluice-submit");

  record Run(int exitCode, String stdout, String stderr, long elapsedMs) {}

  static Path clientJar() throws IOException {
    Path target = ROOT.resolve("tuner-service/client/target");
    try (var s = Files.list(target)) {
      return s.filter(p -> p.getFileName().toString().matches("sluice-tuner-client-.*-all\\.jar"))
          .findFirst()
          .orElseThrow(
              () ->
                  new IllegalStateException(
                      "no shaded client jar in " + target + ": run mvn package"));
    }
  }

  /**
   * A fake spark-submit that writes its argv (NUL-separated) to $FAKE_ARGV_OUT and exits with
   * $FAKE_EXIT.
   */
  static Path fakeSparkSubmit(Path dir) throws IOException {
    Path f = dir.resolve("fake-spark-submit");
    Files.writeString(
        f,
        "#!/usr/bin/env bash\n: > \"$FAKE_ARGV_OUT\"\nfor a in \"$@\"; do printf '%s\\0' \"$a\" >> "
            + "\"$FAKE_ARGV_OUT\"; done\nexit \"${FAKE_EXIT:-0}\"\n");
    Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rwxr-xr-x"));
    return f;
  }

  static List<String> recordedArgv(Path file) throws IOException {
    String s = Files.readString(file, StandardCharsets.UTF_8);
    if (s.isEmpty()) {
      return List.of();
    }
    return new ArrayList<>(Arrays.asList(s.substring(0, s.length() - 1).split("\0", -1)));
  }

  static Run run(List<String> args, Map<String, String> env, Path workDir, long timeoutSec)
      throws Exception {
    List<String> cmd = new ArrayList<>();
    cmd.add(SCRIPT.toAbsolutePath().toString());
    cmd.addAll(args);
    return exec(cmd, env, workDir, timeoutSec);
  }

  /** Runs any command the same way (stdio to files, bounded, process tree killed afterwards). */
  static Run exec(List<String> cmd, Map<String, String> env, Path workDir, long timeoutSec)
      throws Exception {
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(workDir.toFile());
    pb.environment().remove("SPARK_HOME");
    pb.environment().remove("SLUICE_TUNER_URL");
    pb.environment().putAll(env);
    File out = workDir.resolve("launcher.out").toFile();
    File err = workDir.resolve("launcher.err").toFile();
    pb.redirectOutput(out).redirectError(err);
    long start = System.nanoTime();
    Process p = pb.start();
    try {
      if (!p.waitFor(timeoutSec, TimeUnit.SECONDS)) {
        throw new AssertionError("sluice-submit did not finish within " + timeoutSec + " s");
      }
      long elapsed = (System.nanoTime() - start) / 1_000_000;
      return new Run(
          p.exitValue(), Files.readString(out.toPath()), Files.readString(err.toPath()), elapsed);
    } finally {
      p.descendants().forEach(ProcessHandle::destroyForcibly);
      p.destroyForcibly();
    }
  }

  private Launcher() {}
}
