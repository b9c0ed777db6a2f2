package org.dpstream.bench.bandite2e;

import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.dpstream.bandit.env.BanditRound;
import org.dpstream.bandit.env.SyntheticLinearEnvironment;

/**
 * The requests of one bandit-e2e run and what became of them: each request's round of the synthetic
 * environment, when it was due (open loop: its scheduled time, so a late send counts as latency), when its
 * decision arrived and which arm it named. A request decided twice (a replay) counts once. Thread-safe.
 */
final class Workload {

  final BanditRound[] rounds;
  private final long[] dueAt;
  private final long[] latency;
  private final int[] arm;
  private final AtomicIntegerArray decided;
  private final AtomicInteger count = new AtomicInteger();
  private final double rate;
  private volatile long startedAt;
  private volatile long lastDecisionAt;

  Workload(int dimension, int arms, int requests, long seed, double rate) {
    SyntheticLinearEnvironment environment = new SyntheticLinearEnvironment(dimension, arms, seed);
    this.rounds = new BanditRound[requests];
    for (int i = 0; i < requests; i++) {
      rounds[i] = environment.nextRound();
    }
    this.dueAt = new long[requests];
    this.latency = new long[requests];
    this.arm = new int[requests];
    this.decided = new AtomicIntegerArray(requests);
    this.rate = rate;
  }

  /** A started platform thread. */
  static Thread started(String name, Runnable body) {
    Thread thread = new Thread(body, name);
    thread.start();
    return thread;
  }

  int size() {
    return rounds.length;
  }

  void start() {
    startedAt = System.nanoTime();
  }

  /** Offered requests per second; 0: as fast as possible. */
  double rate() {
    return rate;
  }

  /** When request i is due: its place in the open-loop schedule, or now without a rate. */
  long due(int i) {
    long due = rate > 0 ? startedAt + (long) (i * 1e9 / rate) : System.nanoTime();
    dueAt[i] = due;
    return due;
  }

  /**
   * Waits until request i is due (open loop) and returns its due time. One park for the whole wait: waking
   * every millisecond cost tens of thousands of wake-ups a second across the HTTP client's threads, CPU taken
   * from the server on two cores. An oversleep counts as latency (the due time is the schedule's), so it can
   * only make the numbers worse.
   */
  long awaitDue(int i) {
    long due = due(i);
    long wait;
    while ((wait = due - System.nanoTime()) > 0) {
      java.util.concurrent.locks.LockSupport.parkNanos(wait);
    }
    return due;
  }

  /** Records request i's decision; false if it was decided before (a duplicate). */
  boolean decided(int i, int chosenArm, long now) {
    if (!decided.compareAndSet(i, 0, 1)) {
      return false;
    }
    latency[i] = now - dueAt[i];
    arm[i] = chosenArm;
    lastDecisionAt = now;
    count.incrementAndGet();
    return true;
  }

  int decisions() {
    return count.get();
  }

  String describe() {
    int n = count.get();
    long[] sorted = new long[n];
    double regret = 0;
    double randomRegret = 0;
    int optimal = 0;
    Map<Integer, Integer> perArm = new TreeMap<>();
    int k = 0;
    for (int i = 0; i < rounds.length; i++) {
      if (decided.get(i) == 0) {
        continue;
      }
      sorted[k++] = latency[i];
      regret += rounds[i].regretOf(arm[i]);
      optimal += rounds[i].isOptimal(arm[i]) ? 1 : 0;
      perArm.merge(arm[i], 1, Integer::sum);
      double uniform = 0;
      for (int a = 0; a < rounds[i].arms(); a++) {
        uniform += rounds[i].regretOf(a);
      }
      randomRegret += uniform / rounds[i].arms();
    }
    // The last 90 % of requests alone: the service after its first seconds (JIT, first fetches, warm-up backlog).
    int skip = rounds.length / 10;
    long[] steady = new long[n];
    int m = 0;
    for (int i = skip; i < rounds.length; i++) {
      if (decided.get(i) != 0) {
        steady[m++] = latency[i];
      }
    }
    steady = Arrays.copyOf(steady, m);
    String bySecond = bySecond(10);
    Arrays.sort(steady);
    Arrays.sort(sorted);
    double seconds = (lastDecisionAt - startedAt) / 1e9;
    return String.format(Locale.ROOT,
        "decisions: %,d in %.2f s = %,.0f decisions/s (first request due to last decision received)%n"
            + "latency request due -> decision received: p50 %.2f ms, p99 %.2f ms, max %.2f ms%n"
            + "  the same without the first 10 %% of requests: p50 %.2f ms, p99 %.2f ms, max %.2f ms%n"
            + "mean regret per round %.4f; uniformly random arms on the same contexts %.4f (ratio %.3f);"
            + " optimal arm %.1f %%; decisions per arm %s%n"
            + "p99 (max) of the requests due in each of the first 10 s: %s",
        n, seconds, n / seconds, percentile(sorted, 0.50) / 1e6, percentile(sorted, 0.99) / 1e6,
        sorted[n - 1] / 1e6, percentile(steady, 0.50) / 1e6, percentile(steady, 0.99) / 1e6,
        m == 0 ? 0 : steady[m - 1] / 1e6, regret / n, randomRegret / n, regret / randomRegret, 100.0 * optimal / n, perArm,
        bySecond);
  }

  /** The p99 and max latency of the requests due in each of the first {@code seconds} seconds of the run. */
  private String bySecond(int seconds) {
    StringBuilder out = new StringBuilder();
    for (int s = 0; s < seconds; s++) {
      long from = startedAt + s * 1_000_000_000L;
      long[] in = new long[rounds.length];
      int c = 0;
      for (int i = 0; i < rounds.length; i++) {
        if (decided.get(i) != 0 && dueAt[i] >= from && dueAt[i] < from + 1_000_000_000L) {
          in[c++] = latency[i];
        }
      }
      if (c == 0) {
        continue;
      }
      in = Arrays.copyOf(in, c);
      Arrays.sort(in);
      out.append(String.format(Locale.ROOT, "%s%d: %.1f (%.1f) ms", s == 0 ? "" : ", ", s, percentile(in, 0.99) / 1e6,
          in[c - 1] / 1e6));
    }
    return out.toString();
  }

  /** Request i's latency in nanoseconds, from its due time to its decision (0 if it was not decided). */
  long latencyNanos(int i) {
    return latency[i];
  }

  static double percentile(long[] sorted, double q) {
    int index = (int) Math.ceil(q * sorted.length) - 1;
    return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
  }
}
