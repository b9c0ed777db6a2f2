package org.dpstream.bench.common;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Number formats and statistics. */
class SupportTest {

  @Test
  void parametersAreWrittenPlainly() {
    assertEquals("inf", Formats.parameter(Double.POSITIVE_INFINITY));
    assertEquals("1.5", Formats.parameter(1.5));
    assertEquals("1", Formats.parameter(1.0));
    assertEquals("0.0001", Formats.parameter(1e-4));
    assertEquals("0.001", Formats.parameter(1.0 / 1000));
  }

  @Test
  void statisticsUseTheSampleStandardDeviation() {
    assertEquals(2.0, Stats.mean(new double[] {1, 2, 3}));
    assertEquals(1.0, Stats.std(new double[] {1, 2, 3}), 1e-15);
    assertEquals(0.0, Stats.std(new double[] {5}));
  }
}
