package io.sluice.tuner.testing;

import io.sluice.store.ChdbFront;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * ClickHouse's real engine for a test class: the chdb HTTP front of the history-store tests,
 * started before the class's tests (installing chdb if needed; never skipped) and stopped after
 * them. Register it as a static {@code @RegisterExtension} field; {@link #freshUrl} names a
 * database no other test used.
 */
public final class Chdb implements BeforeAllCallback, AfterAllCallback {
  private final String name;
  private final AtomicInteger seq = new AtomicInteger();
  private ChdbFront front;

  /**
   * @param name names the data directory, the front's log and the databases
   */
  public Chdb(String name) {
    this.name = name;
  }

  @Override
  public void beforeAll(ExtensionContext context) throws Exception {
    Path data = Files.createTempDirectory(Path.of("target"), "chdb-" + name + "-");
    front = ChdbFront.start(data, Path.of("target", "chdb-" + name + "-front.log"));
  }

  @Override
  public void afterAll(ExtensionContext context) throws Exception {
    if (front != null) {
      front.close();
      front = null;
    }
  }

  /** The JDBC URL of a database not used before (created by the first component that opens it). */
  public String freshUrl() {
    return front.url("sluice_" + name + "_t" + seq.incrementAndGet());
  }
}
