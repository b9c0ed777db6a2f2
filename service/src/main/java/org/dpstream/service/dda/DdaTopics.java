package org.dpstream.service.dda;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * Creates the topics of a DP-DDA run if they are missing (every node tries; the first wins) and checks the
 * gossip topic: it needs a partition per node, since partition i is node i's inbox. Replication is the
 * cluster's default.
 */
final class DdaTopics {

  private static final long TIMEOUT_SECONDS = 60;

  private DdaTopics() {}

  static void ensure(Admin admin, DdaNodeConfig.Topics topics, int nodes) {
    Map<String, String> compacted = Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT);
    List<NewTopic> wanted = List.of(
        new NewTopic(topics.gossip(), Optional.of(nodes), Optional.empty()),
        new NewTopic(topics.checkpoints(), Optional.of(1), Optional.empty()).configs(compacted),
        new NewTopic(topics.models(), Optional.of(1), Optional.empty()).configs(compacted));
    try {
      for (var entry : admin.createTopics(wanted).values().entrySet()) {
        try {
          entry.getValue().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
          if (!(e.getCause() instanceof TopicExistsException)) {
            throw new IllegalStateException("could not create topic " + entry.getKey() + ": " + e.getCause().getMessage(), e);
          }
        }
      }
      TopicDescription gossip = describeOnceKnown(admin, topics.gossip());
      if (gossip.partitions().size() < nodes) {
        throw new IllegalStateException("gossip topic " + topics.gossip() + " has " + gossip.partitions().size()
            + " partitions; " + nodes + " nodes need one each (partition i is node i's inbox)");
      }
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException("could not set up the DP-DDA topics: " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while setting up the DP-DDA topics", e);
    }
  }

  /**
   * The topic's description, waiting while the brokers do not know it yet: another node may have just created it
   * (our create then met TopicExistsException), and its metadata reaches every broker a moment later.
   */
  private static TopicDescription describeOnceKnown(Admin admin, String topic)
      throws ExecutionException, TimeoutException, InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
    while (true) {
      try {
        return admin.describeTopics(List.of(topic)).allTopicNames().get(TIMEOUT_SECONDS, TimeUnit.SECONDS).get(topic);
      } catch (ExecutionException e) {
        if (!(e.getCause() instanceof UnknownTopicOrPartitionException) || System.nanoTime() > deadline) {
          throw e;
        }
        Thread.sleep(100);
      }
    }
  }
}
