package org.dpstream.core.distributed;

import java.util.Arrays;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.CombinationSampler;
import org.apache.commons.rng.sampling.PermutationSampler;

/**
 * Draws one round of node subsampling and random edge-activation gossip on a supergraph.
 *
 * <p>Node subsampling (Definition 2): exactly k = n iota nodes, a uniform k-subset drawn afresh each round.
 * Edge activation, on the subgraph the supergraph induces on the active set:
 * <ul>
 *   <li>{@link Mode#RANDOM_MATCHING} (default): a random maximal matching (edges in uniformly random order,
 *       kept when both ends are free). On K_n with k even it is a uniform perfect matching, which is our
 *       reading of the paper's experiments: one edge for iota = 0.1 and two disjoint edges for
 *       iota = 0.2 on K_20 (reconstructed: the paper does not say).
 *   <li>{@link Mode#INDUCED_METROPOLIS}: every induced edge; with iota = 1 on K_n this is W = 11'/n, our
 *       default for the paper's baseline [19].
 * </ul>
 * Weights are Metropolis (Xiao, Boyd and Kim 2007): w_ij = 1 / (1 + max(d_i, d_j)) on activated edges, with
 * degrees counted among activated edges, and w_ii = 1 - sum_j w_ij. The result is symmetric, non-negative
 * and doubly stochastic (Assumption 2(i)); it is a function of the round's bits only, hence independent of
 * the past (Assumption 2(ii)). An active node with no activated edge keeps w_ii = 1: it still releases its
 * noisy subgradient into its own z, but mixes with nobody this round.
 *
 * <p>Immutable.
 */
public final class GossipSampler {

  /** How the active nodes' links are activated. */
  public enum Mode {
    RANDOM_MATCHING("matching"), INDUCED_METROPOLIS("metropolis");

    private final String cliName;

    Mode(String cliName) {
      this.cliName = cliName;
    }

    /** The name configs and command lines use: {@code matching} or {@code metropolis}. */
    public String cliName() {
      return cliName;
    }

    /** By the name configs and command lines use: {@code matching} or {@code metropolis}. */
    public static Mode named(String name) {
      for (Mode mode : values()) {
        if (mode.cliName.equals(name)) {
          return mode;
        }
      }
      throw new IllegalArgumentException("gossip must be matching or metropolis, got '" + name + "'");
    }
  }

  private final GossipGraph graph;
  private final double iota;
  private final int activeCount;
  private final Mode mode;

  /**
   * @throws IllegalArgumentException unless iota is in (0, 1] and n iota is an integer (Definition 2)
   */
  public GossipSampler(GossipGraph graph, double iota, Mode mode) {
    this.graph = java.util.Objects.requireNonNull(graph, "graph");
    this.mode = java.util.Objects.requireNonNull(mode, "mode");
    if (!(iota > 0 && iota <= 1)) {
      throw new IllegalArgumentException("iota must be in (0, 1]: " + iota);
    }
    double k = graph.nodeCount() * iota;
    long rounded = Math.round(k);
    if (Math.abs(k - rounded) > 1e-9 || rounded < 1) {
      throw new IllegalArgumentException(
          "n iota must be a positive integer (Definition 2): n = " + graph.nodeCount() + ", iota = " + iota);
    }
    this.iota = iota;
    this.activeCount = (int) rounded;
  }

  public GossipGraph graph() {
    return graph;
  }

  public double iota() {
    return iota;
  }

  /** k = n iota. */
  public int activeCount() {
    return activeCount;
  }

  public Mode mode() {
    return mode;
  }

  /** Draws round {@code t}'s active set and W from {@code bits}, which it consumes. */
  public GossipRound sample(long t, UniformRandomProvider bits) {
    int n = graph.nodeCount();
    int[] activeNodes = activeCount == n ? allNodes(n) : new CombinationSampler(bits, n, activeCount).sample();
    Arrays.sort(activeNodes);
    boolean[] active = new boolean[n];
    for (int i : activeNodes) {
      active[i] = true;
    }
    int[][] edges = inducedEdges(activeNodes);
    if (mode == Mode.RANDOM_MATCHING) {
      edges = randomMaximalMatching(edges, n, bits);
    }
    return metropolis(t, active, edges);
  }

  private static int[] allNodes(int n) {
    int[] nodes = new int[n];
    Arrays.setAll(nodes, i -> i);
    return nodes;
  }

  private int[][] inducedEdges(int[] activeNodes) {
    java.util.List<int[]> edges = new java.util.ArrayList<>();
    for (int a = 0; a < activeNodes.length; a++) {
      for (int b = a + 1; b < activeNodes.length; b++) {
        if (graph.adjacent(activeNodes[a], activeNodes[b])) {
          edges.add(new int[] {activeNodes[a], activeNodes[b]});
        }
      }
    }
    return edges.toArray(int[][]::new);
  }

  private static int[][] randomMaximalMatching(int[][] edges, int n, UniformRandomProvider bits) {
    if (edges.length == 0) {
      return edges;
    }
    int[] order = allNodes(edges.length);
    PermutationSampler.shuffle(bits, order);
    boolean[] matched = new boolean[n];
    java.util.List<int[]> matching = new java.util.ArrayList<>();
    for (int e : order) {
      int[] edge = edges[e];
      if (!matched[edge[0]] && !matched[edge[1]]) {
        matched[edge[0]] = true;
        matched[edge[1]] = true;
        matching.add(edge);
      }
    }
    return matching.toArray(int[][]::new);
  }

  private static GossipRound metropolis(long t, boolean[] active, int[][] edges) {
    int n = active.length;
    int[] degree = new int[n];
    for (int[] edge : edges) {
      degree[edge[0]]++;
      degree[edge[1]]++;
    }
    int[][] neighbours = new int[n][];
    double[][] weights = new double[n][];
    for (int i = 0; i < n; i++) {
      neighbours[i] = new int[degree[i]];
      weights[i] = new double[degree[i]];
    }
    int[] filled = new int[n];
    // Sorting the edges keeps each node's neighbour list sorted, which GossipRound's lookup needs.
    int[][] sorted = edges.clone();
    Arrays.sort(sorted, (x, y) -> x[0] != y[0] ? Integer.compare(x[0], y[0]) : Integer.compare(x[1], y[1]));
    java.util.List<int[]> directed = new java.util.ArrayList<>();
    for (int[] edge : sorted) {
      directed.add(edge);
      directed.add(new int[] {edge[1], edge[0]});
    }
    directed.sort((x, y) -> x[0] != y[0] ? Integer.compare(x[0], y[0]) : Integer.compare(x[1], y[1]));
    for (int[] arc : directed) {
      int i = arc[0];
      int j = arc[1];
      neighbours[i][filled[i]] = j;
      weights[i][filled[i]] = 1.0 / (1 + Math.max(degree[i], degree[j]));
      filled[i]++;
    }
    return new GossipRound(t, active, neighbours, weights);
  }

  @Override
  public String toString() {
    return mode.name().toLowerCase(java.util.Locale.ROOT) + " on " + graph + ", iota=" + iota;
  }
}
