package org.dpstream.bench.common;

import java.io.PrintWriter;
import java.util.function.LongSupplier;

/**
 * A text progress bar on stderr: runs done of total, percentage and elapsed time. On a terminal it is
 * one line redrawn with {@code \r}; otherwise (logs, CI, tests: {@code System.console() == null}) it
 * prints a plain line at every 10% so the log stays readable.
 */
public final class ProgressBar {

  private static final int WIDTH = 30;

  private final PrintWriter out;
  private final int total;
  private final boolean interactive;
  private final LongSupplier nanoClock;
  private final long started;
  private int done;
  private int lastDecile;

  ProgressBar(PrintWriter out, int total, boolean interactive, LongSupplier nanoClock) {
    if (total < 1) {
      throw new IllegalArgumentException("total must be positive: " + total);
    }
    this.out = out;
    this.total = total;
    this.interactive = interactive;
    this.nanoClock = nanoClock;
    this.started = nanoClock.getAsLong();
  }

  /** A bar on the given stream, interactive iff the JVM has a console. */
  public static ProgressBar forStream(PrintWriter out, int total) {
    return new ProgressBar(out, total, System.console() != null, System::nanoTime);
  }

  /** Records one finished run; {@code label} names it. */
  public void advance(String label) {
    done = Math.min(total, done + 1);
    if (interactive) {
      out.print("\r" + line() + "  " + label + "\u001b[K");
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
    return "[" + "#".repeat(filled) + ".".repeat(WIDTH - filled) + "] " + done + "/" + total + " runs "
        + String.format(java.util.Locale.ROOT, "%3d%%", done * 100 / total) + "  elapsed " + elapsed();
  }

  private String elapsed() {
    long seconds = (nanoClock.getAsLong() - started) / 1_000_000_000L;
    return String.format(java.util.Locale.ROOT, "%d:%02d:%02d", seconds / 3600, seconds / 60 % 60, seconds % 60);
  }
}
