package io.sluice.cli;

import io.sluice.ingest.fold.AppFolder;
import io.sluice.model.Json;
import io.sluice.model.StageProfile;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code sluice profile PATH...}: one StageProfile JSON per line per stage attempt that ran. */
@Command(
    name = "profile",
    mixinStandardHelpOptions = true,
    description =
        "Print one JSON StageProfile per line for every stage attempt that ran, sorted by application, "
            + "stage and attempt. Skipped input is reported on stderr; exits non-zero only if nothing could be read.")
public final class ProfileCommand implements Callable<Integer> {
  @Mixin EventLogInputs inputs;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    EventLogInputs.Folded folded = inputs.read(spec.commandLine().getErr());
    for (AppFolder app : folded.apps()) {
      for (StageProfile p : app.profiles()) {
        out.println(Json.write(p));
      }
    }
    out.flush();
    return folded.report().nothingRead() ? 1 : 0;
  }
}
