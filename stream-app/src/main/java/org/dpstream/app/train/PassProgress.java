package org.dpstream.app.train;

import java.io.PrintWriter;
import java.util.Locale;

/**
 * A progress bar over training passes on stderr. On a terminal it is one line redrawn with {@code \r};
 * otherwise (logs, CI, tests) a plain line at every 10%.
 */
final class PassProgress {

  private static final int WIDTH = 30;

  private final PrintWriter out;
  private final int total;
  private final boolean interactive;
  private final long started = System.nanoTime();
  private int lastDecile;

  PassProgress(PrintWriter out, int total, boolean interactive) {
    this.out = out;
    this.total = Math.max(1, total);
    this.interactive = interactive;
  }

  static PassProgress forStream(PrintWriter out, int total) {
    return new PassProgress(out, total, System.console() != null);
  }

  /** Pass {@code pass} (1-based) is done; passes beyond the announced total (a partial pass) count as the last. */
  synchronized void passDone(int pass) {
    int done = Math.min(total, pass);
    if (interactive) {
      out.print("\r" + line(done) + "\u001b[K");
      if (done == total) {
        out.println();
      }
      out.flush();
    } else {
      int decile = done * 10 / total;
      if (decile > lastDecile) {
        lastDecile = decile;
        out.println(line(done));
        out.flush();
      }
    }
  }

  String line(int done) {
    int filled = done * WIDTH / total;
    long seconds = (System.nanoTime() - started) / 1_000_000_000L;
    return "[" + "#".repeat(filled) + ".".repeat(WIDTH - filled) + "] pass " + done + "/" + total
        + String.format(Locale.ROOT, " %3d%%  elapsed %d:%02d:%02d", done * 100 / total, seconds / 3600,
            seconds / 60 % 60, seconds % 60);
  }
}
