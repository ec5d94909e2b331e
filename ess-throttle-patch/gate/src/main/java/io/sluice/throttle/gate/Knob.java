package io.sluice.throttle.gate;

import io.sluice.config.Setting;
import io.sluice.config.Unit;
import java.util.function.UnaryOperator;

/**
 * One configuration knob of the gate: a {@link Setting} whose key lies under {@link
 * GateConfig#PREFIX}, declared once in {@link GateConfig}. These factories only add the prefix;
 * parsing, validation and the generated references ({@code docs/throttle.md}, {@code
 * docs/configuration.md}) are the common setting's.
 *
 * @param <T> the parsed value type (Long for durations and counts, Double for fractions and
 *     factors, String, enums)
 */
public final class Knob<T> extends Setting<T> {
  private Knob(Setting<T> s) {
    super(
        s.key(),
        s.unit(),
        s.defaultValue(),
        s.range(),
        s.description(),
        (key, raw) -> s.parse(raw));
  }

  static Knob<Long> longKnob(
      String name, Unit unit, long def, long min, long max, String description) {
    return new Knob<>(Setting.ofLong(GateConfig.PREFIX + name, unit, def, min, max, description));
  }

  static Knob<Double> doubleKnob(
      String name, Unit unit, double def, double min, double max, String description) {
    return new Knob<>(Setting.ofDouble(GateConfig.PREFIX + name, unit, def, min, max, description));
  }

  static <E extends Enum<E>> Knob<E> enumKnob(
      String name, Class<E> type, E def, String description) {
    return new Knob<>(Setting.ofEnum(GateConfig.PREFIX + name, type, def, description));
  }

  static Knob<String> textKnob(
      String name, String def, String range, String description, UnaryOperator<String> validator) {
    return new Knob<>(Setting.ofText(GateConfig.PREFIX + name, def, range, description, validator));
  }
}
