package org.dpstream.service.streams;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.dpstream.service.bandit.BanditTopology;
import org.dpstream.service.config.ServiceConfig;
import org.dpstream.service.routing.Routing;
import org.dpstream.service.topology.ContinualReleaseTopology;

/**
 * Refuses to start a service whose {@code routingPartitions} differs from the partition count of its
 * existing routing topics. Kafka Streams would detect it too, but only inside a stream thread, which the
 * service then replaces over and over; this says it once, before anything runs, naming the key.
 */
public final class RoutingTopicCheck {

  private static final long TIMEOUT_SECONDS = 30;

  private RoutingTopicCheck() {}

  /** @throws IllegalArgumentException naming {@code routingPartitions} if an existing routing topic disagrees */
  public static void verify(Admin admin, ServiceConfig config) throws InterruptedException {
    List<String> names = new ArrayList<>(List.of(Routing.topicName(config.applicationId(), ContinualReleaseTopology.ROUTING)));
    if (!config.bandits().isEmpty()) {
      names.add(Routing.topicName(config.applicationId(), BanditTopology.ROUTING));
    }
    for (String name : names) {
      TopicDescription description;
      try {
        description = admin.describeTopics(List.of(name)).allTopicNames().get(TIMEOUT_SECONDS, TimeUnit.SECONDS)
            .get(name);
      } catch (ExecutionException e) {
        if (e.getCause() instanceof UnknownTopicOrPartitionException) {
          continue; // a first start: Kafka Streams creates it with routingPartitions partitions
        }
        throw new IllegalStateException("could not describe the routing topic " + name + ": " + e.getCause(), e);
      } catch (TimeoutException e) {
        throw new IllegalStateException("could not describe the routing topic " + name + " within "
            + TIMEOUT_SECONDS + " s", e);
      }
      int existing = description.partitions().size();
      if (existing != config.routingPartitions()) {
        throw new IllegalArgumentException("routingPartitions is " + config.routingPartitions() + " but the routing"
            + " topic " + name + " has " + existing + " partitions: routingPartitions is fixed for the application's"
            + " life (set it back to " + existing + ", or start a new applicationId with a new noise key)");
      }
    }
  }
}
