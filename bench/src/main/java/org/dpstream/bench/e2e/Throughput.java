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
 * @param cpuNanos CPU time of the whole JVM (the topology, its clients, the embedded broker, the JIT) meanwhile: on a
 *     machine whose cores other processes share, CPU per sample compares two runs where their rates cannot
 */
record Throughput(String topology, long samples, long fromStartNanos, long firstToLastNanos, long cpuNanos) {

  /** CPU time of this JVM so far, all threads. */
  static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
        .getOperatingSystemMXBean()).getProcessCpuTime();
  }

  double cpuMicrosPerSample() {
    return cpuNanos / 1e3 / samples;
  }

  double perSecond() {
    return samples / (fromStartNanos / 1e9);
  }

  double steadyPerSecond() {
    return samples / (firstToLastNanos / 1e9);
  }

  String describe() {
    return String.format(Locale.ROOT, "%-13s %,12.0f samples/s from start (%.2f s)   %,12.0f samples/s first-to-last output"
        + " (%.2f s)   %,8.1f us of CPU per sample", topology, perSecond(), fromStartNanos / 1e9, steadyPerSecond(),
        firstToLastNanos / 1e9, cpuMicrosPerSample());
  }
}
