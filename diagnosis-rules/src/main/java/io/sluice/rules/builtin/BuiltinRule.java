package io.sluice.rules.builtin;

import io.sluice.model.AppRun;
import io.sluice.model.Diagnosis;
import io.sluice.model.Recommendation;
import io.sluice.model.Severity;
import io.sluice.model.StageProfile;
import io.sluice.rules.Rule;
import io.sluice.rules.RuleSettings;
import io.sluice.rules.RunConf;
import io.sluice.rules.Sizes;
import io.sluice.rules.Threshold;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * Shared plumbing of the built-in rules: declared thresholds, bound settings, small helpers. Pure.
 */
abstract class BuiltinRule implements Rule {
  private final String id;
  private final List<Threshold> thresholds;
  private final Function<RuleSettings, Rule> rebind;
  protected final RuleSettings settings;

  BuiltinRule(
      String id,
      List<Threshold> thresholds,
      RuleSettings settings,
      Function<RuleSettings, Rule> rebind) {
    this.id = id;
    this.thresholds = List.copyOf(thresholds);
    this.rebind = rebind;
    this.settings = settings != null ? settings : RuleSettings.of(id, this.thresholds, Map.of());
  }

  @Override
  public final String id() {
    return id;
  }

  @Override
  public final List<Threshold> thresholds() {
    return thresholds;
  }

  @Override
  public final Rule withSettings(RuleSettings s) {
    if (!s.ruleId().equals(id)) {
      throw new IllegalArgumentException("settings of " + s.ruleId() + " given to " + id);
    }
    return rebind.apply(s);
  }

  public final RuleSettings settings() {
    return settings;
  }

  @Override
  public final Diagnosis evaluate(AppRun run) {
    return evaluate(run, new RunConf(run));
  }

  abstract Diagnosis evaluate(AppRun run, RunConf conf);

  double get(Threshold t) {
    return settings.get(t);
  }

  Diagnosis none() {
    return Diagnosis.none(id);
  }

  Diagnosis diagnosis(
      Severity severity,
      Collection<Integer> stageIds,
      String summary,
      Map<String, Double> evidence,
      List<Recommendation> recommendations) {
    return new Diagnosis(
        id, severity, new ArrayList<>(new TreeSet<>(stageIds)), summary, evidence, recommendations);
  }

  /** Flattens thresholds and graded sets, in order, into one declaration list. */
  static List<Threshold> declare(Object... parts) {
    List<Threshold> out = new ArrayList<>();
    for (Object p : parts) {
      if (p instanceof Threshold t) {
        out.add(t);
      } else if (p instanceof io.sluice.rules.Grades g) {
        out.addAll(g.thresholds());
      } else {
        throw new IllegalArgumentException("not a threshold: " + p);
      }
    }
    return out;
  }

  /** Stages that read a shuffle. */
  static List<StageProfile> reduceStages(AppRun run) {
    return run.stages().stream()
        .filter(
            s ->
                s.shuffleBytesRead() > 0
                    || s.shuffleRemoteBlocksFetched() + s.shuffleLocalBlocksFetched() > 0)
        .toList();
  }

  /** Stages that write a shuffle without reading one (the map side reading the input). */
  static List<StageProfile> mapStages(AppRun run) {
    return run.stages().stream()
        .filter(
            s ->
                s.shuffleBytesRead() == 0
                    && s.shuffleRemoteBlocksFetched() + s.shuffleLocalBlocksFetched() == 0)
        .filter(s -> s.shuffleWriteBytes() > 0)
        .toList();
  }

  static double meanTaskRunMs(StageProfile s) {
    return s.successfulTasks() == 0 ? 0 : (double) s.executorRunTimeMs() / s.successfulTasks();
  }

  static double readPerTask(StageProfile s) {
    return s.successfulTasks() == 0 ? 0 : (double) s.shuffleBytesRead() / s.successfulTasks();
  }

  static Map<String, Double> evidence() {
    return new LinkedHashMap<>();
  }

  static String stage(StageProfile s) {
    return "stage "
        + s.stageId()
        + (s.stageAttemptId() > 0 ? " (attempt " + s.stageAttemptId() + ")" : "");
  }

  static String bytes(double b) {
    return Sizes.human(b);
  }

  /**
   * The settings that let AQE coalesce small shuffle partitions towards {@code targetBytes}: AQE
   * and coalescing on, {@code parallelismFirst=false} (without it the advisory size is ignored) and
   * an advisory size of at least {@code targetBytes}. Only keys whose value in force differs are
   * returned.
   */
  static List<Recommendation> coalescing(RunConf c, long targetBytes, String why) {
    List<Recommendation> out = new ArrayList<>();
    if (!c.aqeEnabled()) {
      out.add(
          new Recommendation(
              RunConf.AQE, "true", "let AQE coalesce small shuffle partitions: " + why));
    }
    if (!c.coalesceEnabled()) {
      out.add(
          new Recommendation(
              RunConf.COALESCE, "true", "coalesce small shuffle partitions: " + why));
    }
    if (c.parallelismFirst()) {
      out.add(
          new Recommendation(
              RunConf.PARALLELISM_FIRST,
              "false",
              "with parallelismFirst=true (Spark's default) AQE ignores the advisory partition size and keeps "
                  + "1 MiB partitions to preserve parallelism: "
                  + why));
    }
    if (c.advisoryBytes() < targetBytes) {
      out.add(
          new Recommendation(
              RunConf.ADVISORY,
              Sizes.sparkBytes(targetBytes),
              "coalesce towards "
                  + bytes(targetBytes)
                  + " partitions (was "
                  + bytes(c.advisoryBytes())
                  + "): "
                  + why));
    }
    return out;
  }
}
