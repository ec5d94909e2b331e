package io.sluice.cli;

import io.sluice.ingest.fold.AppFolder;
import io.sluice.model.AppRun;
import io.sluice.model.Json;
import io.sluice.rules.RuleEngine;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code sluice app PATH...}: one AppRun JSON per application, diagnosed by the rules on the class
 * path.
 */
@Command(
    name = "app",
    mixinStandardHelpOptions = true,
    description =
        "Print one JSON AppRun per line for every application (with its stage profiles and the "
            + "diagnoses of the registered rules). Exits non-zero only if nothing could be read.")
public final class AppCommand implements Callable<Integer> {
  @Mixin EventLogInputs inputs;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    EventLogInputs.Folded folded = inputs.read(spec.commandLine().getErr());
    RuleEngine rules = RuleEngine.loadDefault();
    long now = System.currentTimeMillis();
    for (AppFolder app : folded.apps()) {
      AppRun run = app.toAppRun(now);
      out.println(Json.write(run.withDiagnoses(rules.diagnose(run))));
    }
    out.flush();
    return folded.report().nothingRead() ? 1 : 0;
  }
}
