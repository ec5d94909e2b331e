package io.sluice.submit;

import io.sluice.contracts.Tier;
import io.sluice.contracts.TierMarkers;
import io.sluice.fallback.conf.OriginalConf;
import io.sluice.submit.outcome.OutcomeReports;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * sluice-submit's one re-run of a launch without YARN attempts that failed in a push tier
 * (docs/push-tier.md). Pure.
 *
 * <p>A launch is re-runnable when Sluice's platform additions routed it to a push tier ({@value
 * Injection#PLATFORM_PREFIX}{@value TierMarkers#TIER} names one: a tier the user set by hand is not
 * Sluice's to undo) and its master is not YARN (YARN re-runs the driver itself, {@code
 * spark.yarn.maxAppAttempts=2}, and the delegating shuffle manager picks the ESS on the second
 * attempt). The re-run is the user's own command line plus, as {@code --conf}s, what {@link
 * OriginalConf#forRerun} gives back from the launched conf that the user's conf does not already
 * say: Sluice's platform additions removed (the tier overlay, its plugins; the {@code
 * spark.sluice.platform.*} markers say what they were), the tuning overlay undone ({@code
 * spark.sluice.injected.*} / {@code spark.sluice.original.*}), the submission id, job key and
 * listener kept (with the listener's jar), and {@code spark.sluice.tier.outcome=ESS}, {@code
 * fallbackReason=RERUN_AFTER_TIER_FAILURE} and the detail added. No new advice is asked for.
 *
 * @param user the user's command line as parsed
 * @param userConf the user's effective conf
 * @param launched the effective conf of the launch that failed
 * @param tier the push tier it was routed to
 * @param listenerJar the listener's jar when the launch added it, else null
 */
public record Rerun(
    SparkSubmitArgs user,
    Map<String, String> userConf,
    Map<String, String> launched,
    Tier tier,
    String listenerJar) {

  /** spark-submit exits that mean someone stopped it (SIGINT, SIGKILL, SIGTERM): never re-run. */
  public static final Set<Integer> STOPPED = Set.of(130, 137, 143);

  /** The re-run of this launch, or empty when it is not one to re-run. */
  public static Optional<Rerun> of(
      SparkSubmitArgs user,
      Map<String, String> userConf,
      Map<String, String> launched,
      String listenerJar) {
    Optional<Tier> tier =
        Tier.parse(launched.get(Injection.PLATFORM_PREFIX + TierMarkers.TIER))
            .filter(t -> t != Tier.ESS);
    if (tier.isEmpty() || OutcomeReports.requestedPushTier(launched).isEmpty()) {
      return Optional.empty();
    }
    String master = launched.get("spark.master");
    if (master != null && master.trim().startsWith("yarn")) {
      return Optional.empty();
    }
    return Optional.of(new Rerun(user, userConf, launched, tier.get(), listenerJar));
  }

  /** Whether a launch that exited with {@code exit} is re-run: it failed, and nobody stopped it. */
  public static boolean rerunsAfter(int exit) {
    return exit != 0 && !STOPPED.contains(exit);
  }

  /** The detail the re-run carries ({@code spark.sluice.tier.fallbackDetail}). */
  public String detail(int exit) {
    return "exit " + exit + " in " + tier.wireName();
  }

  /** The conf the re-run runs with. */
  public Map<String, String> conf(int exit) {
    return OriginalConf.forRerun(
        withoutPlatformAdditions(launched),
        new OriginalConf.Markers(Injection.INJECTED_PREFIX, Injection.ORIGINAL_PREFIX),
        detail(exit));
  }

  /**
   * The re-run's command line: the user's, with the re-run conf's differences as {@code --conf}s.
   */
  public List<String> args(int exit) {
    Map<String, String> additions = new LinkedHashMap<>();
    conf(exit)
        .forEach(
            (k, v) -> {
              // spark.jars is the launch's --jars (the user's plus Sluice's): the user's stay in
              // the command line, of
              // Sluice's only the listener's comes back (below)
              if (!k.equals(Injection.SPARK_JARS) && !Objects.equals(userConf.get(k), v)) {
                additions.put(k, v);
              }
            });
    List<String> jars = new ArrayList<>();
    String listeners = additions.get(Injection.EXTRA_LISTENERS);
    if (listenerJar != null
        && listeners != null
        && Arrays.asList(listeners.split(",")).contains(Injection.LISTENER_CLASS)) {
      jars.add(listenerJar);
    }
    return user.rewrite(additions, jars, userConf);
  }

  /**
   * The conf without what Sluice's platform additions put in: a key whose launched value is still
   * the one recorded under {@value Injection#PLATFORM_PREFIX}, the plugins recorded there (taken
   * out of {@value Injection#SPARK_PLUGINS}), and the markers themselves.
   */
  static Map<String, String> withoutPlatformAdditions(Map<String, String> launched) {
    Map<String, String> out = new LinkedHashMap<>(launched);
    for (Map.Entry<String, String> e : launched.entrySet()) {
      if (!e.getKey().startsWith(Injection.PLATFORM_PREFIX)) {
        continue;
      }
      out.remove(e.getKey());
      String key = e.getKey().substring(Injection.PLATFORM_PREFIX.length());
      if (key.equals(Injection.SPARK_PLUGINS)) {
        List<String> added = split(e.getValue());
        List<String> left = new ArrayList<>(split(out.get(key)));
        left.removeAll(added);
        if (left.isEmpty()) {
          out.remove(key);
        } else {
          out.put(key, String.join(",", left));
        }
      } else if (Objects.equals(launched.get(key), e.getValue())) {
        out.remove(key);
      }
    }
    return out;
  }

  private static List<String> split(String list) {
    return list == null || list.isBlank()
        ? List.of()
        : Arrays.stream(list.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
  }
}
