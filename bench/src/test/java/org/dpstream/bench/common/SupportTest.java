package org.dpstream.bench.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Number formats, statistics and the progress bar. */
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

  @Test
  void progressBarWithoutATerminalPrintsALineEveryTenPercent() {
    StringWriter text = new StringWriter();
    AtomicLong clock = new AtomicLong();
    ProgressBar bar = new ProgressBar(new PrintWriter(text), 40, false, clock::get);
    for (int i = 0; i < 40; i++) {
      clock.addAndGet(1_500_000_000L);
      bar.advance("run " + i);
    }
    String[] lines = text.toString().split("\n");
    assertEquals(10, lines.length);
    assertTrue(lines[9].contains("40/40 runs 100%"), lines[9]);
    assertTrue(lines[9].contains("elapsed 0:01:00"), lines[9]);
    assertTrue(!text.toString().contains("\r"));
  }

  @Test
  void progressBarOnATerminalRedrawsOneLine() {
    StringWriter text = new StringWriter();
    ProgressBar bar = new ProgressBar(new PrintWriter(text), 2, true, () -> 0L);
    bar.advance("a");
    bar.advance("b");
    assertTrue(text.toString().startsWith("\r["));
    assertEquals(1, text.toString().split("\n", -1).length - 1, "one newline, at the end");
  }
}
