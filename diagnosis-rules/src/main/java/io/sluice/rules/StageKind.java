package io.sluice.rules;

import io.sluice.model.StageProfile;

/**
 * The kinds of stage a tunable key can act on, told apart from the profile alone. A stage can be of
 * several kinds (a file scan that writes a shuffle is a {@link #FILE_SCAN} and a {@link #MAP}
 * stage).
 */
public enum StageKind {
  /** every stage */
  ANY("any stage"),
  /** reads input bytes (a file scan; {@code spark.range} and parallelized collections read none) */
  FILE_SCAN("file-scan stages"),
  /** writes a shuffle without reading one */
  MAP("map stages"),
  /** reads a shuffle */
  REDUCE("reduce stages");

  private final String label;

  StageKind(String label) {
    this.label = label;
  }

  /** How the kind reads in a sentence ("file-scan stages"). */
  public String label() {
    return label;
  }

  public boolean matches(StageProfile s) {
    return switch (this) {
      case ANY -> true;
      case FILE_SCAN -> s.scansFiles();
      case MAP -> !s.readsShuffle() && s.shuffleWriteBytes() > 0;
      case REDUCE -> s.readsShuffle();
    };
  }
}
