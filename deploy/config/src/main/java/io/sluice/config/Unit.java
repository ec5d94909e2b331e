package io.sluice.config;

/**
 * The unit a setting's value is written in; configured values are plain numbers in that unit, or
 * text.
 */
public enum Unit {
  MILLIS("milliseconds"),
  BYTES("bytes"),
  COUNT("count"),
  BLOCKS("blocks"),
  FRACTION("fraction"),
  FACTOR("factor"),
  RATIO("ratio"),
  PRIORITY("priority"),
  PORT("port"),
  NUMBER("number"),
  DURATION("duration"),
  SIZE("data size"),
  LIST("list"),
  MAP("map"),
  BOOLEAN("true or false"),
  TEXT("text"),
  ENUM("enum");

  private final String label;

  Unit(String label) {
    this.label = label;
  }

  /** How the unit is named in error messages and generated pages. */
  public String label() {
    return label;
  }
}
