package org.dpstream.core.distributed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestReporter;

/** Mixing matrices (Assumption 2) and the spectral quantity beta of eq. (4). */
class GossipSamplerTest {

  private static final List<GossipGraph> GRAPHS = List.of(
      GossipGraph.complete(20), GossipGraph.ring(20), GossipGraph.squarestGrid(20),
      GossipGraph.erdosRenyi(20, 0.3, RandomSource.XO_RO_SHI_RO_128_PP.create(3L)));

  @Test
  void everySampledMatrixIsSymmetricNonNegativeAndDoublyStochastic() {
    UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(11L);
    for (GossipGraph graph : GRAPHS) {
      for (double iota : new double[] {0.1, 0.2, 0.5, 1.0}) {
        for (GossipSampler.Mode mode : GossipSampler.Mode.values()) {
          GossipSampler sampler = new GossipSampler(graph, iota, mode);
          for (int t = 1; t <= 200; t++) {
            GossipRound round = sampler.sample(t, rng);
            assertEquals(sampler.activeCount(), round.activeCount(), "Definition 2: exactly n iota active");
            double[][] w = round.toMatrix();
            for (int i = 0; i < w.length; i++) {
              double row = 0;
              double column = 0;
              for (int j = 0; j < w.length; j++) {
                assertTrue(w[i][j] >= 0, "non-negative");
                assertEquals(w[i][j], w[j][i], 0, "symmetric");
                assertTrue(w[i][j] == 0 || i == j || (round.isActive(i) && round.isActive(j) && graph.adjacent(i, j)),
                    "weights only on active supergraph edges");
                row += w[i][j];
                column += w[j][i];
              }
              assertEquals(1, row, 1e-12, "row sum, " + sampler);
              assertEquals(1, column, 1e-12, "column sum, " + sampler);
              if (!round.isActive(i)) {
                assertEquals(1, w[i][i], 0, "an inactive node's row is e_i");
              }
            }
          }
        }
      }
    }
  }

  @Test
  void betaOfOneAndTwoDisjointEdgesOnK20MatchesTheClosedForm(TestReporter reporter) {
    UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(12L);
    GossipGraph k20 = GossipGraph.complete(20);
    double oneEdge = SpectralGap.estimateBeta(new GossipSampler(k20, 0.1, GossipSampler.Mode.RANDOM_MATCHING), 40_000, rng);
    double twoEdges = SpectralGap.estimateBeta(new GossipSampler(k20, 0.2, GossipSampler.Mode.RANDOM_MATCHING), 40_000, rng);
    reporter.publishEntry("beta", "one edge " + oneEdge + ", two disjoint edges " + twoEdges);
    // W is a projection, E[W] = I - (nI - 11')/(n(n-1)) per edge.
    assertEquals(Math.sqrt(18.0 / 19), oneEdge, 3e-3);
    assertEquals(Math.sqrt(17.0 / 19), twoEdges, 3e-3);
  }

  @Test
  void allNodesWithInducedMetropolisOnACompleteGraphAverageExactly() {
    GossipSampler sampler = new GossipSampler(GossipGraph.complete(10), 1.0, GossipSampler.Mode.INDUCED_METROPOLIS);
    double[][] w = sampler.sample(1, RandomSource.XO_RO_SHI_RO_128_PP.create(1L)).toMatrix();
    for (double[] row : w) {
      for (double v : row) {
        assertEquals(0.1, v, 1e-15);
      }
    }
    assertEquals(0, SpectralGap.estimateBeta(sampler, 3, RandomSource.XO_RO_SHI_RO_128_PP.create(2L)), 1e-6);
  }

  @Test
  void ringBetaIsBelowOneAndAboveTheCompleteGraphs() {
    UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(13L);
    double ring = SpectralGap.estimateBeta(new GossipSampler(GossipGraph.ring(20), 1.0, GossipSampler.Mode.RANDOM_MATCHING), 5_000, rng);
    double complete = SpectralGap.estimateBeta(new GossipSampler(GossipGraph.complete(20), 1.0, GossipSampler.Mode.RANDOM_MATCHING), 5_000, rng);
    assertTrue(ring < 1 && ring > complete, "ring " + ring + ", complete " + complete);
  }

  @Test
  void nIotaMustBeAnInteger() {
    assertThrows(IllegalArgumentException.class,
        () -> new GossipSampler(GossipGraph.complete(20), 0.33, GossipSampler.Mode.RANDOM_MATCHING));
  }
}
