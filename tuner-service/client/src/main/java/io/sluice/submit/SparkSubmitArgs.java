package io.sluice.submit;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * spark-submit's command line read the way spark-submit reads it (Spark 3.5/4.x {@code
 * SparkSubmitOptionParser}): options up to the first argument that is not an option (the primary
 * resource); everything after it belongs to the application. {@code --opt=value} is accepted for
 * long options, {@code -c} is {@code --conf}, the last {@code --conf} of a key wins, an option
 * Spark does not know is an error. Only what Sluice needs is interpreted; the tokens themselves are
 * kept for the rewrite.
 */
public final class SparkSubmitArgs {
  /** A command line Sluice does not understand (spark-submit itself will report it). */
  public static final class ParseException extends Exception {
    public ParseException(String message) {
      super(message);
    }
  }

  /** One option as it appeared: at {@code index}, one token ({@code --x=v} or a switch) or two. */
  public record Option(String name, String value, int index, boolean inline) {}

  static final Set<String> WITH_VALUE =
      Set.of(
          "--master",
          "--remote",
          "--deploy-mode",
          "--class",
          "--name",
          "--jars",
          "--packages",
          "--exclude-packages",
          "--repositories",
          "--files",
          "--archives",
          "--py-files",
          "--conf",
          "-c",
          "--properties-file",
          "--driver-memory",
          "--driver-java-options",
          "--driver-library-path",
          "--driver-class-path",
          "--executor-memory",
          "--executor-cores",
          "--total-executor-cores",
          "--num-executors",
          "--queue",
          "--principal",
          "--keytab",
          "--proxy-user",
          "--driver-cores",
          "--kill",
          "--status");
  static final Set<String> SWITCHES =
      Set.of(
          "--help",
          "-h",
          "--supervise",
          "--usage-error",
          "--verbose",
          "-v",
          "--version",
          "--load-spark-defaults");

  /**
   * CLI options that set a Spark property (the option wins over --conf and the properties file).
   */
  static final Map<String, String> OPTION_CONFS =
      Map.ofEntries(
          Map.entry("--master", "spark.master"),
          Map.entry("--deploy-mode", "spark.submit.deployMode"),
          Map.entry("--name", "spark.app.name"),
          Map.entry("--jars", "spark.jars"),
          Map.entry("--packages", "spark.jars.packages"),
          Map.entry("--files", "spark.files"),
          Map.entry("--archives", "spark.archives"),
          Map.entry("--py-files", "spark.submit.pyFiles"),
          Map.entry("--queue", "spark.yarn.queue"),
          Map.entry("--driver-memory", "spark.driver.memory"),
          Map.entry("--driver-cores", "spark.driver.cores"),
          Map.entry("--executor-memory", "spark.executor.memory"),
          Map.entry("--executor-cores", "spark.executor.cores"),
          Map.entry("--num-executors", "spark.executor.instances"),
          Map.entry("--total-executor-cores", "spark.cores.max"));

  private static final Pattern INLINE = Pattern.compile("(--[^=]+)=(.+)", Pattern.DOTALL);

  private final List<String> args;
  private final List<Option> options;
  private final int primaryIndex;

  private SparkSubmitArgs(List<String> args, List<Option> options, int primaryIndex) {
    this.args = args;
    this.options = options;
    this.primaryIndex = primaryIndex;
  }

  public static SparkSubmitArgs parse(List<String> args) throws ParseException {
    List<Option> options = new ArrayList<>();
    int i = 0;
    while (i < args.size()) {
      String arg = args.get(i);
      String name = arg;
      String value = null;
      boolean inline = false;
      Matcher m = INLINE.matcher(arg);
      if (m.matches()) {
        name = m.group(1);
        value = m.group(2);
        inline = true;
      }
      if (WITH_VALUE.contains(name)) {
        if (!inline) {
          if (i + 1 >= args.size()) {
            throw new ParseException("missing argument for option '" + name + "'");
          }
          value = args.get(i + 1);
        }
        options.add(new Option(name.equals("-c") ? "--conf" : name, value, i, inline));
        i += inline ? 1 : 2;
        continue;
      }
      if (SWITCHES.contains(arg)) {
        options.add(new Option(arg, null, i, true));
        i++;
        continue;
      }
      if (arg.startsWith("-") && !arg.equals("-")) {
        throw new ParseException("unrecognized option '" + arg + "'");
      }
      return new SparkSubmitArgs(List.copyOf(args), options, i);
    }
    return new SparkSubmitArgs(List.copyOf(args), options, -1);
  }

  public List<String> args() {
    return args;
  }

  public List<Option> options() {
    return Collections.unmodifiableList(options);
  }

  /** Index of the primary resource, or -1 when there is none (e.g. --kill, --status, --help). */
  public int primaryIndex() {
    return primaryIndex;
  }

  public String primaryResource() {
    return primaryIndex < 0 ? null : args.get(primaryIndex);
  }

  /** The value of the last occurrence of an option, or null. */
  public String last(String name) {
    String v = null;
    for (Option o : options) {
      if (o.name().equals(name)) {
        v = o.value();
      }
    }
    return v;
  }

  public boolean has(String name) {
    return options.stream().anyMatch(o -> o.name().equals(name));
  }

  /** True for a command that submits an application (not --kill/--status/--help/--version). */
  public boolean isSubmit() {
    return primaryIndex >= 0
        && !has("--kill")
        && !has("--status")
        && !has("--help")
        && !has("-h")
        && !has("--version")
        && !has("--usage-error");
  }

  /**
   * The {@code --conf} pairs in order, last wins. A pair without '=' is an error (as in
   * spark-submit).
   */
  public Map<String, String> cliConfs() throws ParseException {
    Map<String, String> confs = new LinkedHashMap<>();
    for (Option o : options) {
      if (o.name().equals("--conf")) {
        int eq = o.value().indexOf('=');
        if (eq <= 0) {
          throw new ParseException("Spark config without '=': " + o.value());
        }
        confs.put(o.value().substring(0, eq), o.value().substring(eq + 1));
      }
    }
    return confs;
  }

  /**
   * The user's effective explicit Spark conf: properties file(s), then --conf, then the CLI options
   * that set properties, as spark-submit merges them. {@code env} gives SPARK_CONF_DIR / SPARK_HOME
   * for spark-defaults.conf.
   */
  public Map<String, String> effectiveConf(Map<String, String> env) throws ParseException {
    Map<String, String> conf = new LinkedHashMap<>();
    for (Path file : propertiesFiles(env)) {
      conf.putAll(readProperties(file));
    }
    conf.putAll(cliConfs());
    for (Option o : options) {
      String key = OPTION_CONFS.get(o.name());
      if (key != null) {
        conf.put(key, o.value());
      }
    }
    return conf;
  }

  /** The properties files spark-submit would load, lowest precedence first. */
  List<Path> propertiesFiles(Map<String, String> env) {
    List<Path> files = new ArrayList<>();
    String explicit = last("--properties-file");
    if (explicit == null || has("--load-spark-defaults")) {
      String dir = env.get("SPARK_CONF_DIR");
      if (dir == null || dir.isBlank()) {
        String home = env.get("SPARK_HOME");
        dir = home == null || home.isBlank() ? null : Path.of(home, "conf").toString();
      }
      if (dir != null) {
        Path defaults = Path.of(dir, "spark-defaults.conf");
        if (Files.isRegularFile(defaults)) {
          files.add(defaults);
        }
      }
    }
    if (explicit != null) {
      files.add(Path.of(explicit));
    }
    return files;
  }

  /**
   * A Spark properties file: java.util.Properties syntax, UTF-8, only spark.* keys, values trimmed.
   */
  static Map<String, String> readProperties(Path file) throws ParseException {
    Properties p = new Properties();
    try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      p.load(r);
    } catch (IOException | IllegalArgumentException e) {
      throw new ParseException("cannot read properties file " + file + ": " + e.getMessage());
    }
    Map<String, String> out = new LinkedHashMap<>();
    for (String k : new java.util.TreeSet<>(p.stringPropertyNames())) {
      if (k.startsWith("spark.")) {
        out.put(k, p.getProperty(k).trim());
      }
    }
    return out;
  }

  /**
   * The application name as spark-submit derives it: --name, spark.app.name, --class, the
   * resource's file name.
   */
  public String appName(Map<String, String> effectiveConf) {
    String name = effectiveConf.get("spark.app.name");
    if (name == null) {
      name = last("--class");
    }
    if (name == null && primaryResource() != null) {
      String r = primaryResource();
      name = r.substring(r.lastIndexOf('/') + 1);
    }
    return name;
  }

  /**
   * The command line with {@code confs} added as {@code --conf K=V} just before the primary
   * resource and {@code jars} appended to the last {@code --jars} (or to spark.jars through a new
   * {@code --jars}). Tokens from the primary resource on are untouched.
   */
  public List<String> rewrite(
      Map<String, String> confs, List<String> jars, Map<String, String> effectiveConf) {
    if (primaryIndex < 0) {
      throw new IllegalStateException("no primary resource to insert before");
    }
    List<String> head = new ArrayList<>(args.subList(0, primaryIndex));
    List<String> added = new ArrayList<>();
    if (!jars.isEmpty()) {
      Option lastJars = null;
      for (Option o : options) {
        if (o.name().equals("--jars")) {
          lastJars = o;
        }
      }
      if (lastJars != null) {
        String merged = Injection.appendJars(lastJars.value(), jars);
        if (lastJars.inline()) {
          head.set(lastJars.index(), "--jars=" + merged);
        } else {
          head.set(lastJars.index() + 1, merged);
        }
      } else {
        added.add("--jars");
        added.add(Injection.appendJars(effectiveConf.get("spark.jars"), jars));
      }
    }
    for (Map.Entry<String, String> e : confs.entrySet()) {
      added.add("--conf");
      added.add(e.getKey() + "=" + e.getValue());
    }
    List<String> out = new ArrayList<>(head);
    out.addAll(added);
    out.addAll(args.subList(primaryIndex, args.size()));
    return out;
  }
}
