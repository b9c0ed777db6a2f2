package org.dpstream.service.routing;

import java.util.Optional;
import java.util.Set;
import org.apache.kafka.streams.processor.StreamPartitioner;

/**
 * Writes each routed record to its id's {@link Placement}. Records without an id (they are rejected
 * after routing) all go to partition 0, so nothing is left to the producer's sticky partitioner.
 */
final class RoutingPartitioner implements StreamPartitioner<String, byte[]> {

  @Override
  public Optional<Set<Integer>> partitions(String topic, String id, byte[] value, int numPartitions) {
    return Optional.of(Set.of(id == null ? 0 : Placement.of(id, numPartitions).partition()));
  }
}
