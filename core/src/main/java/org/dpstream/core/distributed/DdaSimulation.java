package org.dpstream.core.distributed;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.dpstream.core.erm.ErmDataset;
import org.dpstream.core.privacy.random.KeyedNoiseSource;

/**
 * Mode 1: all n nodes of a DP-DDA run in one JVM, rounds executed synchronously over an
 * {@link InMemoryGossipTransport} (every node broadcasts, then every node mixes). Deterministic given the
 * key and run id: all randomness (schedule, sample indices, noise) comes from the keyed source.
 *
 * <p>Not thread-safe.
 */
public final class DdaSimulation {

  private final List<DdaNode> nodes;
  private final KeyedGossipSchedule schedule;
  private final InMemoryGossipTransport transport = new InMemoryGossipTransport();
  private long completedRounds;

  /**
   * @param shards D_1..D_n, one per node of the sampler's graph (the analysis assumes equal sizes q)
   */
  public DdaSimulation(List<ErmDataset> shards, DdaSettings settings, GossipSampler sampler, KeyedNoiseSource source, String runId) {
    if (shards.size() != sampler.graph().nodeCount()) {
      throw new IllegalArgumentException(shards.size() + " shards for a graph of " + sampler.graph().nodeCount() + " nodes");
    }
    if (settings.iota() != sampler.iota()) {
      throw new IllegalArgumentException("settings and sampler disagree on iota: " + settings.iota() + " vs " + sampler.iota());
    }
    this.schedule = new KeyedGossipSchedule(sampler, source, runId);
    this.nodes = new ArrayList<>(shards.size());
    for (int i = 0; i < shards.size(); i++) {
      nodes.add(new DdaNode(i, shards.get(i), settings, source, runId));
    }
  }

  /** Runs one round and returns its gossip. */
  public GossipRound runRound() {
    GossipRound round = schedule.round(completedRounds + 1);
    for (DdaNode node : nodes) {
      node.broadcast(round, transport);
    }
    for (DdaNode node : nodes) {
      node.mix(round, transport);
    }
    completedRounds++;
    return round;
  }

  public long completedRounds() {
    return completedRounds;
  }

  public int nodeCount() {
    return nodes.size();
  }

  public DdaNode node(int i) {
    return nodes.get(i);
  }

  /** (1/n) sum_i x~_i, the model the paper evaluates (Section 5). */
  public double[] networkAverageModel() {
    return overNodes(DdaNode::averagedModel);
  }

  /** zbar = (1/n) sum_i z_i; doubly stochastic W makes zbar^(t+1) = zbar^(t) + a_t theta^(t) exactly. */
  public double[] meanDual() {
    return overNodes(DdaNode::dual);
  }

  /** (1/n) sum_i v_i of each node's vector v_i, summed in node order. */
  private double[] overNodes(Function<DdaNode, double[]> vector) {
    double[] mean = new double[nodes.get(0).iterate().length];
    for (DdaNode node : nodes) {
      double[] v = vector.apply(node);
      for (int j = 0; j < mean.length; j++) {
        mean[j] += v[j] / nodes.size();
      }
    }
    return mean;
  }

  /**
   * Splits a data set evenly over n nodes in its row order (shuffle it first for a random assignment, as the
   * paper does): q = floor(N / n) samples each, the remainder dropped so that all q are equal.
   */
  public static List<ErmDataset> partition(ErmDataset data, int nodes) {
    int q = data.size() / nodes;
    if (q < 1) {
      throw new IllegalArgumentException(data.size() + " samples cannot feed " + nodes + " nodes");
    }
    List<ErmDataset> shards = new ArrayList<>(nodes);
    for (int i = 0; i < nodes; i++) {
      double[][] rows = new double[q][];
      double[] labels = new double[q];
      for (int k = 0; k < q; k++) {
        rows[k] = data.row(i * q + k);
        labels[k] = data.label(i * q + k);
      }
      shards.add(ErmDataset.of(rows, labels, data.bounds()));
    }
    return shards;
  }
}
