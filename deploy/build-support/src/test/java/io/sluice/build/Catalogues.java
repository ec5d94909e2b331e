package io.sluice.build;

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
    List<Catalogue> all = new ArrayList<>(List.of(
        GateConfig.CATALOGUE,
        EssSettings.CATALOGUE,
        YarnSettings.CATALOGUE,
        ShimSettings.CATALOGUE,
        SluiceListenerConf.CATALOGUE,
        TunerSettings.CATALOGUE,
        JobConfig.catalogue(),
        RuleConfig.catalogue(RuleEngine.loadDefault().rules())));
    all.addAll(SpringMetadata.tunerService());
    return List.copyOf(all);
  }
}
