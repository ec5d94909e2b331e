package io.sluice.throttle.ess;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.throttle.ess.testing.Await;
import io.sluice.throttle.gate.TestDisk;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

class EmulatedDiskTest {
  @Test
  void theSharedDiskServesOneReadAtATimeInArrivalOrderWhateverTheThread() throws Exception {
    // reads of 2 s: each thread must be seen queued before the read ahead of it is done, on a busy
    // machine too
    EmulatedDisk.SharedDisk disk =
        (EmulatedDisk.SharedDisk) EmulatedDisk.of(TestDisk.SHARED_DISK, 2_000);
    List<Integer> done = new CopyOnWriteArrayList<>();
    List<Thread> threads = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      int id = i;
      Thread t =
          new Thread(
              () -> {
                disk.read();
                done.add(id);
              },
              "server-thread-" + i);
      threads.add(t);
      t.start();
      int queued = i;
      // each read starts only once the previous ones hold or wait for the device, so the order is
      // known
      Await.until(
          () -> disk.busy() && disk.queued() == queued,
          Duration.ofSeconds(30),
          () -> "one read on the device, " + queued + " queued");
    }
    assertThat(disk.queued()).as("one read on the device, two queued behind it").isEqualTo(2);
    for (Thread t : threads) {
      t.join();
    }
    assertThat(done).containsExactly(0, 1, 2);
    assertThat(disk.queued()).isZero();
  }

  @Test
  void perThreadAndOffModels() {
    assertThat(EmulatedDisk.of(TestDisk.SHARED_DISK, 0)).isSameAs(EmulatedDisk.NONE);
    assertThat(EmulatedDisk.of(TestDisk.PER_THREAD, 5))
        .isNotInstanceOf(EmulatedDisk.SharedDisk.class)
        .isNotSameAs(EmulatedDisk.NONE);
  }
}
