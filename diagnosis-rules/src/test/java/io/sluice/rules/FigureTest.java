package io.sluice.rules;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class FigureTest {
  @Test
  void countsPrintWithOneDecimalAtMostAndNoneWhenItWouldBeZero() {
    assertThat(Figure.BLOCKS_PER_REDUCE_TASK.format(200)).isEqualTo("200");
    assertThat(Figure.BLOCKS_PER_REDUCE_TASK.format(199.97)).isEqualTo("200");
    assertThat(Figure.BLOCKS_PER_REDUCE_TASK.format(2.4)).isEqualTo("2.4");
    assertThat(Figure.BLOCKS_PER_REDUCE_TASK.format(0)).isEqualTo("0");
  }

  @Test
  void sizesAndTimingsPrintInTheirUnits() {
    assertThat(Figure.AVG_BLOCK_BYTES.format(171)).isEqualTo("171 B");
    assertThat(Figure.AVG_BLOCK_BYTES.format(1650)).isEqualTo("1.6 KiB");
    assertThat(Figure.BLOCKED_MS.format(79)).isEqualTo("79 ms");
    assertThat(Figure.BLOCKED_MS.format(9045)).isEqualTo("9.0 s");
  }

  @Test
  void theBlockSizeFloorIsAByteAndTimingsAreMillis() {
    assertThat(Figure.AVG_BLOCK_BYTES.floor()).isEqualTo(1.0);
    assertThat(Figure.BLOCKED_MS.unit()).isEqualTo(Figure.Unit.MILLIS);
    assertThat(Figure.REDUCE_TASK_MAX_MS.unit()).isEqualTo(Figure.Unit.MILLIS);
    assertThat(Figure.AVG_BLOCK_BYTES.unit()).isEqualTo(Figure.Unit.BYTES);
  }
}
