package io.sluice.flink;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The process supervisor shared by {@code deploy/bin/spark-cluster.sh} and {@code flink-cluster.sh}
 * ({@code deploy/bin/lib/supervise.sh}), driven through bash with short-lived stand-in daemons.
 */
class ClusterSupervisorTest {
  private static final Path LIB = TestLogs.repoRoot().resolve("deploy/bin/lib/supervise.sh");

  @TempDir Path dir;

  private Processes.Result bash(String script) throws Exception {
    String prelude =
        "set -euo pipefail\nsv_state='"
            + dir
            + "/state' sv_tag=t\n. '"
            + LIB
            + "'\n"
            + "mkdir -p \"$sv_state/logs\"\n";
    Path file = dir.resolve("t.sh");
    Files.writeString(file, prelude + script);
    return Processes.run(
        List.of("bash", file.toString()),
        Map.of(),
        dir.resolve("out-" + System.nanoTime() + ".log"),
        Duration.ofSeconds(60));
  }

  @Test
  void aDaemonThatExecsRepeatedlyDuringStartUpIsAliveAtEveryCheck() throws Exception {
    // spark-class is a shell script that runs a launcher and execs java: the same pid execs twice.
    // The old
    // check (one read of /proc/PID/environ) could read empty in the middle of an exec and call it
    // dead.
    // The stand-in sleeps far longer than the checks can take on a loaded machine (200 checks once
    // took 34 s
    // there, outliving a 20 s sleep); the stop ends it.
    Processes.Result r =
        bash(
            """
        sv_launch d "$sv_state/logs/d.out" bash -c 'for i in 1 2 3; do :; done; exec bash -c "exec bash -c \\"exec sleep 600\\""'
        misses=0
        for i in $(seq 1 200); do [ -n "$(sv_pid d)" ] || misses=$((misses + 1)); done
        echo "misses=$misses"
        if sv_first_dead d; then echo "dead=$sv_dead"; else echo "none dead"; fi
        sv_stop_pid d "$(sv_pid d)" 5
        echo "after stop=[$(sv_pid d)]"
        """);
    assertThat(r.exit()).as(r.tail()).isZero();
    assertThat(r.output()).contains("misses=0", "none dead", "t: stopped d", "after stop=[]");
  }

  @Test
  void aDaemonThatDiesIsNamedWithItsExitStatusAndItsLogTail() throws Exception {
    Processes.Result r =
        bash(
            """
        sv_launch ok "$sv_state/logs/ok.out" sleep 20
        sv_launch master "$sv_state/logs/master.out" bash -c 'echo "Address already in use: bind"; exit 3'
        sleep 1
        if sv_first_dead ok master; then echo "dead=$sv_dead"; fi
        sv_tail_logs 5
        sv_stop_pid ok "$(sv_pid ok)" 5
        """);
    assertThat(r.exit()).as(r.tail()).isZero();
    assertThat(r.output())
        .contains(
            "dead=master (exit 3)",
            "tail of " + dir + "/state/logs/master.out",
            "Address already in use: bind");
  }

  @Test
  void aPidFileWhoseStartTimeDiffersIsNotOurs() throws Exception {
    // a recycled pid: alive, but started at another time than the one recorded
    Processes.Result r =
        bash(
            """
        sleep 20 & other=$!
        mkdir -p "$sv_state/pids"
        echo "$other 1" >"$sv_state/pids/x.pid"
        echo "recycled=[$(sv_pid x)]"
        echo "$other $(sv_start_time "$other")" >"$sv_state/pids/x.pid"
        echo "same=[$(sv_pid x)]"
        kill "$other"
        """);
    assertThat(r.exit()).as(r.tail()).isZero();
    assertThat(r.output()).contains("recycled=[]").containsPattern("same=\\[[0-9]+]");
  }
}
