package org.dpstream.core.privacy.noise;

import static org.dpstream.core.privacy.noise.NoiseTestSupport.assertFitsCdf;
import static org.dpstream.core.privacy.noise.NoiseTestSupport.coordinate;
import static org.dpstream.core.privacy.noise.NoiseTestSupport.draw;
import static org.dpstream.core.privacy.noise.NoiseTestSupport.seeded;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.apache.commons.statistics.distribution.GumbelDistribution;
import org.junit.jupiter.api.Test;

class IidGumbelNoiseTest {

  // Bonferroni over the d coordinates, total alpha = 1e-4: deterministic with the fixed seed; a fresh
  // seed would fail a correct sampler with probability at most 1e-4.
  @Test
  void everyCoordinateIsGumbelWithTheScale() {
    IidVectorNoise noise = IidVectorNoise.gumbel(3, 1.7);
    double[][] vectors = draw(noise, seeded(301), 10_000);
    for (int i = 0; i < noise.dimension(); i++) {
      assertFitsCdf(coordinate(vectors, i), GumbelDistribution.of(0, 1.7)::cumulativeProbability,
          1e-4 / noise.dimension(), "coordinate " + i);
    }
  }

  /**
   * The Gumbel-max trick: argmax(u_i + G_i) with G_i ~ Gumbel(0, beta) picks i with probability
   * proportional to exp(u_i / beta). Three utilities, 60000 draws, chi-square with 2 degrees of freedom
   * at alpha = 1e-4 (deterministic with the fixed seed).
   */
  @Test
  void argmaxOfUtilityPlusNoiseSamplesTheExponentialMechanism() {
    double beta = 0.8;
    double[] utility = {0.0, 0.5, -0.7};
    IidVectorNoise noise = IidVectorNoise.gumbel(3, beta);
    double[] sample = new double[3];
    int n = 60_000;
    long[] counts = new long[3];
    var bits = seeded(302);
    for (int r = 0; r < n; r++) {
      noise.sample(bits, sample);
      int best = 0;
      for (int i = 1; i < 3; i++) {
        if (utility[i] + sample[i] > utility[best] + sample[best]) {
          best = i;
        }
      }
      counts[best]++;
    }
    double normaliser = 0;
    for (double u : utility) {
      normaliser += Math.exp(u / beta);
    }
    double statistic = 0;
    for (int i = 0; i < 3; i++) {
      double expected = n * Math.exp(utility[i] / beta) / normaliser;
      statistic += (counts[i] - expected) * (counts[i] - expected) / expected;
    }
    double critical = org.apache.commons.statistics.distribution.ChiSquaredDistribution.of(2).inverseSurvivalProbability(1e-4);
    org.junit.jupiter.api.Assertions.assertTrue(statistic < critical, "chi-square " + statistic);
  }

  @Test
  void rejectsBadParameters() {
    assertEquals("scale must be finite and > 0, got 0.0",
        assertThrows(IllegalArgumentException.class, () -> IidVectorNoise.gumbel(2, 0)).getMessage());
  }
}
