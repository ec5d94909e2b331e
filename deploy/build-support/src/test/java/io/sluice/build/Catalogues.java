package io.sluice.build;

import io.sluice.cli.CollectCommand;
import io.sluice.cli.PollYarnCommand;
import io.sluice.config.Catalogue;
import io.sluice.flink.JobConfig;
import io.sluice.listener.SluiceListenerConf;
import io.sluice.rules.RuleConfig;
import io.sluice.rules.RuleEngine;
import io.sluice.submit.client.TunerSettings;
import io.sluice.throttle.ess.EssSettings;
import io.sluice.throttle.gate.GateConfig;
import io.sluice.throttle.shim.ShimSettings;
import io.sluice.throttle.yarn.YarnSettings;
import java.util.ArrayList;
import java.util.List;

/** Every component's settings, in the order the configuration reference lists them. */
public final class Catalogues {
  private Catalogues() {}

  public static List<Catalogue> all() {
    List<Catalogue> all =
        new ArrayList<>(
            List.of(
                GateConfig.CATALOGUE,
                EssSettings.CATALOGUE,
                YarnSettings.CATALOGUE,
                ShimSettings.CATALOGUE,
                SluiceListenerConf.CATALOGUE,
                TunerSettings.CATALOGUE,
                CommandOptions.catalogue(
                    "Event-log collector (sluice collect)",
                    "Options of `sluice collect`, the daemon that "
                        + "publishes Spark event logs to Kafka (`--bootstrap` and at least one path are required).",
                    new CollectCommand()),
                CommandOptions.catalogue(
                    "YARN poller (sluice poll-yarn)",
                    "Options of `sluice poll-yarn`, the daemon that "
                        + "publishes the ResourceManager's application records to Kafka.",
                    new PollYarnCommand()),
                JobConfig.catalogue(),
                RuleConfig.catalogue(RuleEngine.loadDefault().rules())));
    all.addAll(SpringMetadata.tunerService());
    return List.copyOf(all);
  }
}
