package org.dpstream.options;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The progress bar of the bench's runs and of train's passes. */
class ProgressBarTest {

  @Test
  void progressBarWithoutATerminalPrintsALineEveryTenPercent() {
    StringWriter text = new StringWriter();
    AtomicLong clock = new AtomicLong();
    ProgressBar bar = new ProgressBar(new PrintWriter(text), 40, false, clock::get, ProgressBar.Unit.RUNS);
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
    ProgressBar bar = new ProgressBar(new PrintWriter(text), 2, true, () -> 0L, ProgressBar.Unit.RUNS);
    bar.advance("a");
    bar.advance("b");
    assertTrue(text.toString().startsWith("\r["));
    assertEquals(1, text.toString().split("\n", -1).length - 1, "one newline, at the end");
  }

  @Test
  void passesAreCountedAbsolutelyAndAPartialPassCountsAsTheLast() {
    StringWriter text = new StringWriter();
    AtomicLong clock = new AtomicLong();
    ProgressBar bar = new ProgressBar(new PrintWriter(text), 4, false, clock::get, ProgressBar.Unit.PASSES);
    clock.addAndGet(3_725_000_000_000L); // 1 h 2 min 5 s
    bar.passDone(2);
    bar.passDone(2);
    bar.passDone(5);
    String[] lines = text.toString().split("\n");
    assertEquals(2, lines.length);
    assertEquals("[###############...............] pass 2/4  50%  elapsed 1:02:05", lines[0]);
    assertEquals("[##############################] pass 4/4 100%  elapsed 1:02:05", lines[1]);
  }
}
