package org.dpstream.bench.e2e;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * What the service's models cost: heap after a full collection (with every sample learnt and the service resting for
 * {@code --rest}, against the same measure before it started) and the bytes of its state directory (RocksDB's files, after the service
 * closed and flushed them), each per model.
 *
 * @param models the models configured
 * @param heapBefore heap used after a full collection before the service started, bytes
 * @param heapIdle heap used after a full collection with the service idle, bytes
 * @param stateBytes bytes under the service's state directory after it closed
 */
record ModelFootprint(int models, long heapBefore, long heapIdle, long stateBytes) {

  /** Heap used after a full collection ({@code System.gc}, twice, so finalisable garbage goes too). */
  static long heapAfterFullCollection() {
    System.gc();
    System.gc();
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  /** Bytes of every regular file under {@code directory}. */
  static long bytesUnder(Path directory) {
    try (Stream<Path> files = Files.walk(directory)) {
      return files.filter(Files::isRegularFile).mapToLong(file -> {
        try {
          return Files.size(file);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }).sum();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  String describe() {
    return String.format(Locale.ROOT, "footprint of %,d models: heap %,d bytes per model (%,d MB idle after a full"
        + " collection against %,d MB before the service started; the broker shares the JVM), state directory %,d"
        + " bytes per model (%,d MB of RocksDB files after close)", models, (heapIdle - heapBefore) / models,
        heapIdle >> 20, heapBefore >> 20, stateBytes / models, stateBytes >> 20);
  }
}
