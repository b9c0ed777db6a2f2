package org.dpstream.service.routing;

import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.utils.Utils;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.random.NoiseKeyRing;

/**
 * The routing partition that owns a model or bandit: {@code partition} of {@code partitions}.
 *
 * <p>The home partition of an id is Kafka's own murmur2 hash of the id's UTF-8 bytes modulo the partition
 * count, the same function the Java clients' default partitioner uses for a string key (so a kcat user
 * can compute it too). Because the id is decoded to a string before routing and encoded again, two byte
 * sequences that decode to the same id land in the same place.
 *
 * @param partition the routing partition, in [0, partitions)
 * @param partitions the routing topic's partition count, fixed for the application's life
 */
public record Placement(int partition, int partitions) {

  public Placement {
    if (partitions < 1 || partition < 0 || partition >= partitions) {
      throw new IllegalArgumentException("no routing partition " + partition + " of " + partitions);
    }
  }

  /** The home of {@code id} among {@code partitions} routing partitions. */
  public static Placement of(String id, int partitions) {
    if (partitions < 1) {
      throw new IllegalArgumentException("routingPartitions must be at least 1, got " + partitions);
    }
    return new Placement(Utils.toPositive(Utils.murmur2(id.getBytes(StandardCharsets.UTF_8))) % partitions,
        partitions);
  }

  /**
   * The noise of a state placed here: the key's streams moved into this placement's scope. Two states of
   * one model in different places (which routing prevents, but an upgrade from an unrouted version or a
   * mis-written internal topic could try) therefore never share noise, and since every record is routed
   * to one place their data are disjoint: parallel composition keeps the guarantee.
   */
  public KeyedNoiseSource noise(KeyedNoiseSource key) {
    return key.scoped(scope());
  }

  /**
   * Every key of {@code keys} moved into this placement's scope for noise generation {@code generation}: generation 0
   * is the placement's own scope (the coordinates of every state made before generations existed), a later one a
   * scope of its own, so a model started again after its state was lost never draws a coordinate it published.
   */
  public NoiseKeyRing noise(NoiseKeyRing keys, int generation) {
    return keys.scoped(scope(generation));
  }

  /** The noise scope of generation {@code generation} here: {@link #scope()}, then the generation if it is not 0. */
  public String scope(int generation) {
    if (generation < 0) {
      throw new IllegalArgumentException("noise generations start at 0, got " + generation);
    }
    return generation == 0 ? scope() : scope() + ", noise generation " + generation;
  }

  /** The noise scope's name; also how the placement is written in messages. */
  public String scope() {
    return "routing partition " + partition + " of " + partitions;
  }

  @Override
  public String toString() {
    return scope();
  }
}
