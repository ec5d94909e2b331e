package io.sluice.cli;

import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code sluice}: the top-level command. Subcommands are registered in {@link #SUBCOMMANDS} only;
 * add a new one there (a picocli {@code @Command} class with a no-argument constructor).
 */
@Command(
    name = "sluice",
    mixinStandardHelpOptions = true,
    versionProvider = SluiceCli.Version.class,
    description = "Sluice: Spark shuffle profiles, diagnoses and tuning.",
    commandListHeading = "%nCommands:%n")
public final class SluiceCli implements Callable<Integer> {
  /** The one place where subcommands are registered. */
  static final List<Class<?>> SUBCOMMANDS =
      List.of(
          ProfileCommand.class,
          AppCommand.class,
          DiagnoseCommand.class,
          RunsCommand.class,
          CollectCommand.class,
          PollYarnCommand.class);

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    spec.commandLine().usage(spec.commandLine().getErr());
    return CommandLine.ExitCode.USAGE;
  }

  /** The command line with every subcommand registered. */
  public static CommandLine commandLine() {
    CommandLine cli = new CommandLine(new SluiceCli());
    for (Class<?> sub : SUBCOMMANDS) {
      cli.addSubcommand(sub);
    }
    return cli;
  }

  public static void main(String[] args) {
    System.exit(commandLine().execute(args));
  }

  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      String v = SluiceCli.class.getPackage().getImplementationVersion();
      return new String[] {"sluice " + (v == null ? "(development build)" : v)};
    }
  }
}
