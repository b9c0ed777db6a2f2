package org.dpstream.bench.e2e;

import java.lang.management.ManagementFactory;
import java.util.Locale;

/** What a throughput number depends on, printed beside it. */
public final class MachineFacts {

  private MachineFacts() {}

  public static String describe() {
    Runtime runtime = Runtime.getRuntime();
    return String.format(Locale.ROOT, "machine: %d cores, %s %s (%s); JVM %s %s, max heap %d MiB, GC %s",
        runtime.availableProcessors(), System.getProperty("os.name"), System.getProperty("os.version"),
        System.getProperty("os.arch"), System.getProperty("java.vm.name"), System.getProperty("java.runtime.version"),
        runtime.maxMemory() / (1024 * 1024),
        String.join("+", ManagementFactory.getGarbageCollectorMXBeans().stream().map(b -> b.getName()).toList()));
  }
}
