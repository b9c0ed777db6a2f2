package org.dpstream.bench.e2e;

import java.util.Locale;

/**
 * One measured run.
 *
 * @param topology what ran
 * @param samples input records processed
 * @param fromStartNanos from starting the topology to reading its last committed output: includes
 *     group join, task assignment and the first transaction, as a restart would
 * @param firstToLastNanos from the first to the last committed output: the steady-state part
 */
record Throughput(String topology, long samples, long fromStartNanos, long firstToLastNanos) {

  double perSecond() {
    return samples / (fromStartNanos / 1e9);
  }

  double steadyPerSecond() {
    return samples / (firstToLastNanos / 1e9);
  }

  String describe() {
    return String.format(Locale.ROOT, "%-13s %,12.0f samples/s from start (%.2f s)   %,12.0f samples/s first-to-last output (%.2f s)",
        topology, perSecond(), fromStartNanos / 1e9, steadyPerSecond(), firstToLastNanos / 1e9);
  }
}
