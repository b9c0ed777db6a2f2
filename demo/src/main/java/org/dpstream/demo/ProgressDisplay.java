package org.dpstream.demo;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The demo's progress line on stderr: a bar, samples processed per second (steps the service
 * released, over the last redraw interval), and per model the step and epsilon spent as its latest
 * release's ledger states them.
 *
 * <p>The bar fills with whichever limit of the run comes first, the samples or the duration, so it
 * shows when the stream will end. On a terminal the line is redrawn in place with {@code \r}; otherwise
 * (logs, CI, tests) a plain line is printed every few seconds.
 */
final class ProgressDisplay implements AutoCloseable {

  private static final int BAR_WIDTH = 20;
  private static final long INTERACTIVE_PERIOD_MS = 250;
  private static final long PLAIN_PERIOD_MS = 5_000;

  private final PrintWriter err;
  private final StreamProgress progress;
  private final long expectedSteps;
  private final long durationNanos;
  private final boolean interactive;
  private final long startedNanos = System.nanoTime();
  private final ScheduledExecutorService timer;
  private long previousSteps;
  private long previousNanos = startedNanos;
  private double samplesPerSecond;

  private ProgressDisplay(PrintWriter err, StreamProgress progress, long expectedSteps, long durationNanos,
      boolean interactive) {
    this.err = err;
    this.progress = progress;
    this.expectedSteps = Math.max(1, expectedSteps);
    this.durationNanos = durationNanos;
    this.interactive = interactive;
    this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread thread = new Thread(r, "dpstream-demo-progress");
      thread.setDaemon(true);
      return thread;
    });
  }

  /** Starts redrawing; interactive iff the JVM has a console. */
  static ProgressDisplay start(PrintWriter err, StreamProgress progress, long expectedSteps, long durationNanos) {
    boolean interactive = System.console() != null;
    ProgressDisplay display = new ProgressDisplay(err, progress, expectedSteps, durationNanos, interactive);
    long period = interactive ? INTERACTIVE_PERIOD_MS : PLAIN_PERIOD_MS;
    display.timer.scheduleAtFixedRate(display::redraw, period, period, TimeUnit.MILLISECONDS);
    return display;
  }

  private synchronized void redraw() {
    String line = line(System.nanoTime());
    if (interactive) {
      err.print("\r" + line + "\u001b[K");
    } else {
      err.println(line);
    }
    err.flush();
  }

  synchronized String line(long nowNanos) {
    long steps = progress.totalSteps();
    if (nowNanos > previousNanos) {
      samplesPerSecond = (steps - previousSteps) * 1e9 / (nowNanos - previousNanos);
      previousSteps = steps;
      previousNanos = nowNanos;
    }
    double done = Math.min(1, Math.max((double) steps / expectedSteps, (double) (nowNanos - startedNanos) / durationNanos));
    int filled = (int) (done * BAR_WIDTH);
    StringBuilder line = new StringBuilder()
        .append('[').append("#".repeat(filled)).append(".".repeat(BAR_WIDTH - filled)).append("] ")
        .append(String.format(Locale.ROOT, "%3d%% %,7.0f samples/s", (int) (done * 100), samplesPerSecond));
    for (ModelProgress model : progress.models()) {
      ModelProgress.Snapshot snapshot = model.snapshot();
      line.append(String.format(Locale.ROOT, " | %s t=%,d eps=%.2f/%s", model.model().id(), snapshot.step(),
          snapshot.epsilonSpent(), PlainNumbers.of(snapshot.epsilonBudget())));
    }
    long rejected = progress.totalRejected();
    if (rejected > 0) {
      line.append(" | rejected ").append(rejected);
    }
    return line.toString();
  }

  /** Stops redrawing and leaves the last state on its own line. */
  @Override
  public void close() {
    timer.shutdownNow();
    try {
      timer.awaitTermination(1, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    redraw();
    if (interactive) {
      err.println();
      err.flush();
    }
  }
}
