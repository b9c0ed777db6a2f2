package org.dpstream.bench.e2e;

import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.LogDirDescription;
import org.apache.kafka.clients.admin.ReplicaInfo;
import org.apache.kafka.common.TopicPartition;
import org.dpstream.service.streams.DpstreamService;

/**
 * What the models' state costs to keep and to get back: the bytes of the state store's changelog on the broker per
 * sample learnt, and how long a fresh instance takes to restore every model's state from it. The fresh instance has
 * an empty state directory, as after a kill -9 under exactly-once (Kafka Streams does not trust a state directory that
 * was not closed cleanly and restores it from the changelog) or on a new host. It has the same static membership id,
 * so it takes the tasks over without waiting for a session timeout.
 *
 * @param changelogBytes bytes of the changelog's partitions on the broker (written, not yet compacted away)
 * @param samples the samples learnt
 * @param startMillis from the start of the fresh instance until it had read dp.releases and started its threads
 * @param restoreMillis from then until every task had restored its state and was running
 */
record StateRecovery(long changelogBytes, long samples, long startMillis, long restoreMillis) {

  /** The changelog of the models' state store under {@code applicationId}. */
  static String changelog(String applicationId) {
    return applicationId + "-" + org.dpstream.service.topology.ContinualReleaseTopology.MODEL_STATE_STORE + "-changelog";
  }

  /** Bytes of {@code topic}'s partitions in every log directory of the broker(s). */
  static long bytesOnBroker(Admin admin, String topic) throws ExecutionException, InterruptedException {
    List<Integer> brokers = admin.describeCluster().nodes().get().stream().map(node -> node.id()).toList();
    long bytes = 0;
    for (var dirs : admin.describeLogDirs(brokers).allDescriptions().get().values()) {
      for (LogDirDescription dir : dirs.values()) {
        for (var replica : dir.replicaInfos().entrySet()) {
          TopicPartition partition = replica.getKey();
          ReplicaInfo info = replica.getValue();
          if (partition.topic().equals(topic)) {
            bytes += info.size();
          }
        }
      }
    }
    return bytes;
  }

  /** Starts a fresh instance ({@code start}), times it until it runs, and closes it. */
  static StateRecovery measure(long changelogBytes, long samples, Supplier<DpstreamService> start)
      throws InterruptedException {
    long started = System.nanoTime();
    try (DpstreamService fresh = start.get()) {
      long threadsStarted = System.nanoTime();
      if (!fresh.awaitRunning(java.time.Duration.ofMinutes(10))) {
        throw new IllegalStateException("the fresh instance did not restore its state: " + fresh.state());
      }
      long running = System.nanoTime();
      return new StateRecovery(changelogBytes, samples, (threadsStarted - started) / 1_000_000,
          (running - threadsStarted) / 1_000_000);
    }
  }

  String describe() {
    return String.format(Locale.ROOT, "state: changelog %,d bytes on the broker, %.1f bytes per sample; a fresh instance"
        + " (empty state directory, as after kill -9) read dp.releases and started in %.1f s, restored every model's"
        + " state and ran %.1f s later", changelogBytes, changelogBytes / (double) samples, startMillis / 1e3,
        restoreMillis / 1e3);
  }
}
