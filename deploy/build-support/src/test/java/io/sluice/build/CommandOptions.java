package io.sluice.build;

import io.sluice.config.Catalogue;
import io.sluice.config.Setting;
import io.sluice.config.Unit;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The settings of a daemon started from the command line, as its picocli command declares them:
 * each option's name, default, type and description. picocli checks them when the command starts (a
 * missing required option, a value of the wrong type or an unknown option stops it with a message
 * naming the option).
 */
final class CommandOptions {
  private CommandOptions() {}

  static Catalogue catalogue(String component, String source, Object command) {
    CommandSpec spec = new CommandLine(command).getCommandSpec();
    List<Setting<?>> settings = new ArrayList<>();
    for (OptionSpec o : spec.options()) {
      if (o.usageHelp() || o.versionHelp()) {
        continue;
      }
      String def = o.defaultValue() == null ? "" : o.defaultValue();
      String text =
          String.join(" ", o.description())
              .replace("${DEFAULT-VALUE}", def)
              .replace(" (default: " + def + ")", "");
      settings.add(
          Setting.of(
              o.longestName(),
              unit(o.type()),
              def,
              o.required() ? "required" : "",
              text,
              (key, raw) -> raw));
    }
    return Catalogue.of(component, source, settings);
  }

  static Unit unit(Class<?> type) {
    if (type == boolean.class || type == Boolean.class) {
      return Unit.BOOLEAN;
    }
    if (type == int.class || type == long.class || type == Integer.class || type == Long.class) {
      return Unit.NUMBER;
    }
    if (type == Duration.class) {
      return Unit.DURATION;
    }
    return type.isEnum() ? Unit.ENUM : Unit.TEXT;
  }
}
