package org.dpstream.core.distributed;

import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * One round's random gossip (Assumption 2 of Liu, Johansson and Shi): the active set N^(t) and the doubly
 * stochastic matrix W^(t), stored sparsely. An active node i mixes its own message with weight w_ii and the
 * message of each active neighbour j in N_i^(t) with weight w_ij &gt; 0; an inactive node's row is e_i.
 *
 * <p>Every node can compute the same round from the shared schedule ({@link KeyedGossipSchedule}), so a
 * node knows whose messages to expect without a coordinator. Immutable.
 */
public final class GossipRound {

  private final long round;
  private final boolean[] active;
  private final int[][] neighbours;
  private final double[][] weights;

  GossipRound(long round, boolean[] active, int[][] neighbours, double[][] weights) {
    this.round = round;
    this.active = active;
    this.neighbours = neighbours;
    this.weights = weights;
  }

  /** t. */
  public long round() {
    return round;
  }

  public int nodeCount() {
    return active.length;
  }

  /** eta_i^(t). */
  public boolean isActive(int node) {
    return active[node];
  }

  /** The sorted active nodes. */
  public int[] activeNodes() {
    int[] nodes = new int[activeCount()];
    int k = 0;
    for (int i = 0; i < active.length; i++) {
      if (active[i]) {
        nodes[k++] = i;
      }
    }
    return nodes;
  }

  public int activeCount() {
    int count = 0;
    for (boolean a : active) {
      count += a ? 1 : 0;
    }
    return count;
  }

  /** N_i^(t): the nodes whose messages {@code node} mixes this round (empty if inactive or isolated). */
  public Set<Integer> neighboursOf(int node) {
    Set<Integer> set = new LinkedHashSet<>();
    for (int j : neighbours[node]) {
      set.add(j);
    }
    return set;
  }

  /** w_ij^(t) for j != i (0 unless j is in N_i^(t)). */
  public double weight(int node, int from) {
    if (node == from) {
      return selfWeight(node);
    }
    int k = Arrays.binarySearch(neighbours[node], from);
    return k >= 0 ? weights[node][k] : 0;
  }

  /** w_ii^(t) = 1 - sum_{j != i} w_ij^(t). */
  public double selfWeight(int node) {
    double sum = 0;
    for (double w : weights[node]) {
      sum += w;
    }
    return 1 - sum;
  }

  /** W^(t) as a dense n x n array, for analysis and tests. */
  public double[][] toMatrix() {
    double[][] w = new double[active.length][active.length];
    for (int i = 0; i < active.length; i++) {
      w[i][i] = selfWeight(i);
      for (int k = 0; k < neighbours[i].length; k++) {
        w[i][neighbours[i][k]] = weights[i][k];
      }
    }
    return w;
  }
}
