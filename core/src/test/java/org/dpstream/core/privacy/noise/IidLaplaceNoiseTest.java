package org.dpstream.core.privacy.noise;

import static org.dpstream.core.privacy.noise.NoiseTestSupport.assertFitsCdf;
import static org.dpstream.core.privacy.noise.NoiseTestSupport.coordinate;
import static org.dpstream.core.privacy.noise.NoiseTestSupport.draw;
import static org.dpstream.core.privacy.noise.NoiseTestSupport.seeded;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.apache.commons.statistics.distribution.LaplaceDistribution;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

class IidLaplaceNoiseTest {

  // Bonferroni over the d coordinates, total alpha = 1e-4: deterministic with the fixed seed; a
  // fresh seed would fail a correct sampler with probability at most 1e-4.
  @Test
  void everyCoordinateIsLaplaceWithTheScale() {
    IidVectorNoise noise = IidVectorNoise.laplace(4, 2.5);
    double[][] vectors = draw(noise, seeded(201), 10_000);
    for (int i = 0; i < noise.dimension(); i++) {
      assertFitsCdf(
          coordinate(vectors, i),
          LaplaceDistribution.of(0, 2.5)::cumulativeProbability,
          1e-4 / noise.dimension(),
          "coordinate " + i);
    }
  }

  @Test
  void rejectsBadParametersWithClearMessages() {
    assertMessage("dimension must be > 0, got -2", () -> IidVectorNoise.laplace(-2, 1));
    assertMessage("scale must be finite and > 0, got 0.0", () -> IidVectorNoise.laplace(3, 0));
    assertMessage("scale must be finite and > 0, got NaN", () -> IidVectorNoise.laplace(3, Double.NaN));
  }

  private static void assertMessage(String expected, Executable constructor) {
    assertEquals(expected, assertThrows(IllegalArgumentException.class, constructor).getMessage());
  }
}
