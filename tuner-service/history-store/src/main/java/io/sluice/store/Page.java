package io.sluice.store;

import java.util.List;

/**
 * One page of a longer listing: {@code total} rows match, {@code items} are rows {@code page *
 * size} onwards.
 */
public record Page<T>(long total, int page, int size, List<T> items) {
  public Page {
    items = List.copyOf(items);
  }
}
