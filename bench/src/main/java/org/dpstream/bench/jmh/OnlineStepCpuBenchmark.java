package org.dpstream.bench.jmh;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;

/**
 * {@link OnlineStepBenchmark}'s step timed by the benchmark thread's CPU time as well, in batches of {@link
 * #BATCH} steps: on a shared machine wall-clock throughput also counts the time other processes held the
 * core, and varied several-fold between iterations in our runs, while CPU time does not count it. Read
 * the secondary results: cpu ns per step = {@code cpuNanos / steps} of the same iteration or run. Run only
 * this method ({@code 'OnlineStepCpuBenchmark.stepsOnCpu'}): the inherited {@code step} is the parent's.
 */
public class OnlineStepCpuBenchmark extends OnlineStepBenchmark {

  static final int BATCH = 1000;
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  /** CPU nanoseconds and steps of one iteration, reported as JMH secondary results. */
  @State(Scope.Thread)
  @AuxCounters(AuxCounters.Type.EVENTS)
  public static class CpuTime {
    public long cpuNanos;
    public long steps;

    @Setup(Level.Iteration)
    public void reset() {
      cpuNanos = 0;
      steps = 0;
    }
  }

  @Benchmark
  @OperationsPerInvocation(BATCH)
  public void stepsOnCpu(CpuTime cpu, Blackhole blackhole) {
    long start = THREADS.getCurrentThreadCpuTime();
    for (int i = 0; i < BATCH; i++) {
      blackhole.consume(step());
    }
    cpu.cpuNanos += THREADS.getCurrentThreadCpuTime() - start;
    cpu.steps += BATCH;
  }
}
