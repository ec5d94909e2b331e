package io.sluice.store;

import java.util.List;

/** The distinct values the job index can be filtered by, each sorted. */
public record JobFacets(
    List<String> clusters,
    List<String> queues,
    List<String> users,
    List<String> states,
    List<String> severities) {
  public JobFacets {
    clusters = List.copyOf(clusters);
    queues = List.copyOf(queues);
    users = List.copyOf(users);
    states = List.copyOf(states);
    severities = List.copyOf(severities);
  }
}
