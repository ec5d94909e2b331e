package io.sluice.cli;

import io.sluice.ingest.fold.AppFolder;
import io.sluice.model.AppRun;
import io.sluice.model.Diagnosis;
import io.sluice.model.Json;
import io.sluice.model.Recommendation;
import io.sluice.model.Severity;
import io.sluice.rules.RuleConfig;
import io.sluice.rules.RuleEngine;
import io.sluice.rules.Sizes;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code sluice diagnose PATH...}: each application's AppRun with its diagnoses, as JSON or a
 * readable summary.
 */
@Command(
    name = "diagnose",
    mixinStandardHelpOptions = true,
    description =
        "Diagnose every application in the event logs with the registered rules (docs/rules.md). "
            + "Prints one JSON AppRun with its diagnoses per line, or a readable summary with --format text. "
            + "Exits 1 if nothing could be read, 2 on a bad option or rules configuration.")
public final class DiagnoseCommand implements Callable<Integer> {
  enum Format {
    json,
    text
  }

  @Mixin EventLogInputs inputs;

  @Option(
      names = "--format",
      paramLabel = "FORMAT",
      defaultValue = "json",
      description = "json (one AppRun per line, default) or text (a summary per application).")
  Format format;

  @Option(
      names = "--rules-config",
      paramLabel = "FILE",
      description =
          "Properties file of rule settings: sluice.rules.<RULE_ID>.<threshold>=<number> and "
              + "sluice.rules.<RULE_ID>.enabled=false. Unknown keys and out-of-range values are errors.")
  Path rulesConfig;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    RuleEngine rules;
    try {
      rules = RuleEngine.loadDefault(loadConfig());
    } catch (IllegalArgumentException | IOException e) {
      err.println(
          "sluice diagnose: " + (rulesConfig == null ? "" : rulesConfig + ": ") + e.getMessage());
      err.flush();
      return CommandLine.ExitCode.USAGE;
    }
    EventLogInputs.Folded folded = inputs.read(err);
    long now = System.currentTimeMillis();
    for (AppFolder app : folded.apps()) {
      AppRun raw = app.toAppRun(now);
      AppRun run = raw.withDiagnoses(rules.diagnose(raw));
      if (format == Format.json) {
        out.println(Json.write(run));
      } else {
        printText(out, run);
      }
    }
    out.flush();
    if (rules.failures() > 0 || rules.rejectedRecommendations() > 0) {
      err.println(
          rules.failures()
              + " rule evaluation(s) failed, "
              + rules.rejectedRecommendations()
              + " recommendation(s) rejected by the allow-list (see the log)");
      err.flush();
    }
    return folded.report().nothingRead() ? 1 : 0;
  }

  private RuleConfig loadConfig() throws IOException {
    if (rulesConfig == null) {
      return RuleConfig.empty();
    }
    Properties p = new Properties();
    try (Reader r = Files.newBufferedReader(rulesConfig, StandardCharsets.UTF_8)) {
      p.load(r);
    }
    return RuleConfig.of(p);
  }

  static void printText(PrintWriter out, AppRun run) {
    out.printf(
        Locale.ROOT,
        "%s  %s  %s, Spark %s, %d stage attempt(s)%n",
        run.appId(),
        run.name(),
        run.status(),
        run.sparkVersion(),
        run.stages().size());
    if (run.diagnoses().isEmpty()) {
      out.println("  no findings");
    }
    for (Diagnosis d : run.diagnoses()) {
      out.printf(Locale.ROOT, "  %-8s %s  stages %s%n", d.severity(), d.ruleId(), d.stageIds());
      out.println("    " + d.summary());
      if (!d.evidence().isEmpty()) {
        StringBuilder ev = new StringBuilder("    evidence:");
        for (Map.Entry<String, Double> e : d.evidence().entrySet()) {
          ev.append(' ').append(e.getKey()).append('=').append(Sizes.plain(e.getValue()));
        }
        out.println(ev);
      }
      for (Recommendation r : d.recommendations()) {
        out.println("    recommend " + r.key() + "=" + r.value());
        out.println("      because " + r.reason());
      }
    }
    Severity worst =
        run.diagnoses().stream().map(Diagnosis::severity).reduce(Severity.NONE, Severity::max);
    out.println("  worst: " + worst);
    out.println();
  }
}
