package org.dpstream.core.distributed;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.commons.rng.UniformRandomProvider;

/**
 * The communication supergraph: an undirected simple graph on nodes 0..n-1 whose edges are the links that
 * gossip may activate. Four families: complete (the paper's K_20, Section 5), ring, 2-D grid and
 * Erdos-Renyi G(n, p). The topology is public: it is not part of the mechanism's secret randomness, so the
 * Erdos-Renyi draw takes any simulation generator.
 *
 * <p>Immutable.
 */
public final class GossipGraph {

  private final String description;
  private final int[][] neighbours;

  private GossipGraph(String description, List<List<Integer>> adjacency) {
    this.description = description;
    this.neighbours = new int[adjacency.size()][];
    for (int i = 0; i < neighbours.length; i++) {
      neighbours[i] = adjacency.get(i).stream().mapToInt(Integer::intValue).sorted().distinct().toArray();
    }
  }

  /** K_n. */
  public static GossipGraph complete(int nodes) {
    List<List<Integer>> adjacency = empty(nodes);
    for (int i = 0; i < nodes; i++) {
      for (int j = i + 1; j < nodes; j++) {
        link(adjacency, i, j);
      }
    }
    return new GossipGraph("complete(" + nodes + ")", adjacency);
  }

  /** The cycle 0-1-...-(n-1)-0 (a path for n = 2, a single node for n = 1). */
  public static GossipGraph ring(int nodes) {
    List<List<Integer>> adjacency = empty(nodes);
    for (int i = 0; i + 1 < nodes; i++) {
      link(adjacency, i, i + 1);
    }
    if (nodes > 2) {
      link(adjacency, nodes - 1, 0);
    }
    return new GossipGraph("ring(" + nodes + ")", adjacency);
  }

  /** The rows x columns grid with 4-neighbourhoods, node r * columns + c. */
  public static GossipGraph grid(int rows, int columns) {
    List<List<Integer>> adjacency = empty(Math.multiplyExact(rows, columns));
    for (int r = 0; r < rows; r++) {
      for (int c = 0; c < columns; c++) {
        int node = r * columns + c;
        if (c + 1 < columns) {
          link(adjacency, node, node + 1);
        }
        if (r + 1 < rows) {
          link(adjacency, node, node + columns);
        }
      }
    }
    return new GossipGraph("grid(" + rows + "x" + columns + ")", adjacency);
  }

  /**
   * The most nearly square grid with exactly {@code nodes} nodes (rows the largest divisor &lt;= sqrt(n)); a
   * prime n gives a path.
   */
  public static GossipGraph squarestGrid(int nodes) {
    int rows = (int) Math.floor(Math.sqrt(nodes));
    while (nodes % rows != 0) {
      rows--;
    }
    return grid(rows, nodes / rows);
  }

  /**
   * G(n, p): each pair linked independently with probability p, redrawn until connected (at most 1000
   * attempts), because gossip on a disconnected graph cannot reach consensus (beta = 1).
   *
   * @throws IllegalArgumentException if no connected draw was found
   */
  public static GossipGraph erdosRenyi(int nodes, double probability, UniformRandomProvider rng) {
    if (!(probability > 0 && probability <= 1)) {
      throw new IllegalArgumentException("edge probability must be in (0, 1]: " + probability);
    }
    for (int attempt = 0; attempt < 1000; attempt++) {
      List<List<Integer>> adjacency = empty(nodes);
      for (int i = 0; i < nodes; i++) {
        for (int j = i + 1; j < nodes; j++) {
          if (rng.nextDouble() < probability) {
            link(adjacency, i, j);
          }
        }
      }
      GossipGraph graph = new GossipGraph("erdos-renyi(" + nodes + ", p=" + probability + ")", adjacency);
      if (graph.isConnected()) {
        return graph;
      }
    }
    throw new IllegalArgumentException("no connected G(" + nodes + ", " + probability + ") in 1000 draws; raise p");
  }

  /**
   * A family by the name configs and command lines use: {@code complete}, {@code ring}, {@code grid} (the
   * squarest grid on n nodes) or {@code erdos-renyi} (G(n, p) drawn from the public {@code seed}, so every
   * node of a deployment builds the same graph).
   *
   * @param edgeProbability p of erdos-renyi, ignored otherwise
   */
  public static GossipGraph named(String family, int nodes, double edgeProbability, long seed) {
    return switch (family) {
      case "complete" -> complete(nodes);
      case "ring" -> ring(nodes);
      case "grid" -> squarestGrid(nodes);
      case "erdos-renyi" -> erdosRenyi(nodes, edgeProbability,
          org.apache.commons.rng.simple.RandomSource.XO_RO_SHI_RO_128_PP.create(seed));
      default -> throw new IllegalArgumentException("graph must be complete, ring, grid or erdos-renyi, got '" + family + "'");
    };
  }

  private static List<List<Integer>> empty(int nodes) {
    if (nodes < 1) {
      throw new IllegalArgumentException("a graph needs at least one node: " + nodes);
    }
    List<List<Integer>> adjacency = new ArrayList<>(nodes);
    for (int i = 0; i < nodes; i++) {
      adjacency.add(new ArrayList<>());
    }
    return adjacency;
  }

  private static void link(List<List<Integer>> adjacency, int i, int j) {
    adjacency.get(i).add(j);
    adjacency.get(j).add(i);
  }

  /** n. */
  public int nodeCount() {
    return neighbours.length;
  }

  /** The sorted neighbours of {@code node} (a copy). */
  public int[] neighbours(int node) {
    return neighbours[node].clone();
  }

  public boolean adjacent(int i, int j) {
    return Arrays.binarySearch(neighbours[i], j) >= 0;
  }

  /** Whether every node reaches every other. */
  public boolean isConnected() {
    boolean[] seen = new boolean[neighbours.length];
    int[] stack = new int[neighbours.length];
    int top = 0;
    stack[top++] = 0;
    seen[0] = true;
    int reached = 1;
    while (top > 0) {
      for (int next : neighbours[stack[--top]]) {
        if (!seen[next]) {
          seen[next] = true;
          reached++;
          stack[top++] = next;
        }
      }
    }
    return reached == neighbours.length;
  }

  /** Every node's sorted neighbour list, e.g. "[[1, 2], [0, 2], [0, 1]]": the graph itself, for fingerprints. */
  public String adjacency() {
    return Arrays.deepToString(neighbours);
  }

  @Override
  public String toString() {
    return description;
  }
}
