package org.dpstream.options;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * A text progress bar on stderr: runs (bench experiments) or passes (train) done of total, percentage and
 * elapsed time. On a terminal it is one line redrawn with {@code \r}; otherwise (logs, CI, tests:
 * {@code System.console() == null}) it prints a plain line at every 10% so the log stays readable.
 */
public final class ProgressBar {

  /** What is counted, and how the count reads. */
  enum Unit {
    RUNS, PASSES;

    String count(int done, int total) {
      return this == RUNS ? done + "/" + total + " runs" : "pass " + done + "/" + total;
    }
  }

  private static final int WIDTH = 30;

  private final PrintWriter out;
  private final int total;
  private final boolean interactive;
  private final LongSupplier nanoClock;
  private final Unit unit;
  private final long started;
  private int done;
  private int lastDecile;

  ProgressBar(PrintWriter out, int total, boolean interactive, LongSupplier nanoClock, Unit unit) {
    if (total < 1) {
      throw new IllegalArgumentException("total must be positive: " + total);
    }
    this.out = out;
    this.total = total;
    this.interactive = interactive;
    this.nanoClock = nanoClock;
    this.unit = unit;
    this.started = nanoClock.getAsLong();
  }

  /** A bar over {@code total} runs on the given stream, interactive iff the JVM has a console. */
  public static ProgressBar forStream(PrintWriter out, int total) {
    return new ProgressBar(out, total, System.console() != null, System::nanoTime, Unit.RUNS);
  }

  /** A bar over training passes (at least one), interactive iff the JVM has a console. */
  public static ProgressBar forPasses(PrintWriter out, int passes) {
    return new ProgressBar(out, Math.max(1, passes), System.console() != null, System::nanoTime, Unit.PASSES);
  }

  /** Records one finished run; {@code label} names it. */
  public synchronized void advance(String label) {
    show(Math.min(total, done + 1), "  " + label);
  }

  /** Pass {@code pass} (1-based) is done; passes beyond the announced total (a partial pass) count as the last. */
  public synchronized void passDone(int pass) {
    show(Math.min(total, pass), "");
  }

  private void show(int count, String label) {
    done = count;
    if (interactive) {
      out.print("\r" + line() + label + "\u001b[K");
      if (done == total) {
        out.println();
      }
      out.flush();
    } else {
      int decile = done * 10 / total;
      if (decile > lastDecile) {
        lastDecile = decile;
        out.println(line());
        out.flush();
      }
    }
  }

  String line() {
    int filled = done * WIDTH / total;
    long seconds = (nanoClock.getAsLong() - started) / 1_000_000_000L;
    return "[" + "#".repeat(filled) + ".".repeat(WIDTH - filled) + "] " + unit.count(done, total)
        + String.format(Locale.ROOT, " %3d%%  elapsed %d:%02d:%02d", done * 100 / total, seconds / 3600,
            seconds / 60 % 60, seconds % 60);
  }
}
