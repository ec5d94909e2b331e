package io.sluice.build;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.config.Catalogue;
import io.sluice.config.Setting;
import io.sluice.config.Unit;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

class CommandOptionsTest {
  @Command(name = "sample", mixinStandardHelpOptions = true)
  static final class Sample implements Callable<Integer> {
    @Option(names = "--bootstrap", required = true, description = "Kafka bootstrap servers.")
    String bootstrap;

    @Option(
        names = {"-p", "--poll-seconds"},
        defaultValue = "5",
        description = "Poll interval (default: ${DEFAULT-VALUE}).")
    int pollSeconds;

    @Option(names = "--follow", description = "Keep running.")
    boolean follow;

    @Override
    public Integer call() {
      return 0;
    }
  }

  @Test
  void everyOptionButHelpBecomesASettingWithItsDefaultAndType() {
    Catalogue c = CommandOptions.catalogue("Sample", "Options of sample.", new Sample());
    assertThat(c.settings())
        .extracting(Setting::key)
        .containsExactly("--bootstrap", "--poll-seconds", "--follow");
    Setting<?> poll = c.find("--poll-seconds");
    assertThat(poll.defaultText()).isEqualTo("5");
    assertThat(poll.unit()).isEqualTo(Unit.NUMBER);
    assertThat(poll.description()).isEqualTo("Poll interval.");
    assertThat(c.find("--bootstrap").range()).isEqualTo("required");
    assertThat(c.find("--follow").unit()).isEqualTo(Unit.BOOLEAN);
  }
}
