package org.dpstream.core.privacy.noise;

import static org.dpstream.core.privacy.noise.NoiseTestSupport.assertFitsCdf;
import static org.dpstream.core.privacy.noise.NoiseTestSupport.coordinate;
import static org.dpstream.core.privacy.noise.NoiseTestSupport.draw;
import static org.dpstream.core.privacy.noise.NoiseTestSupport.seeded;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.apache.commons.statistics.distribution.NormalDistribution;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

class IidGaussianNoiseTest {

  // Bonferroni over the d coordinates, total alpha = 1e-4: deterministic with the fixed seed; a
  // fresh seed would fail a correct sampler with probability at most 1e-4.
  @Test
  void everyCoordinateIsNormalWithStdSigma() {
    IidVectorNoise noise = IidVectorNoise.gaussian(4, 0.7);
    double[][] vectors = draw(noise, seeded(101), 10_000);
    for (int i = 0; i < noise.dimension(); i++) {
      assertFitsCdf(
          coordinate(vectors, i),
          NormalDistribution.of(0, 0.7)::cumulativeProbability,
          1e-4 / noise.dimension(),
          "coordinate " + i);
    }
  }

  @Test
  void rejectsBadParametersWithClearMessages() {
    assertMessage("dimension must be > 0, got 0", () -> IidVectorNoise.gaussian(0, 1));
    assertMessage("sigma must be finite and > 0, got -1.0", () -> IidVectorNoise.gaussian(3, -1));
    assertMessage("sigma must be finite and > 0, got 0.0", () -> IidVectorNoise.gaussian(3, 0));
    assertMessage("sigma must be finite and > 0, got NaN", () -> IidVectorNoise.gaussian(3, Double.NaN));
    assertMessage(
        "sigma must be finite and > 0, got Infinity",
        () -> IidVectorNoise.gaussian(3, Double.POSITIVE_INFINITY));
  }

  private static void assertMessage(String expected, Executable constructor) {
    assertEquals(expected, assertThrows(IllegalArgumentException.class, constructor).getMessage());
  }
}
