package org.dpstream.bandit.env;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class SyntheticLinearEnvironmentTest {

  @Test
  void eachParameterHasFiveEqualCoordinatesAndUnitL1Norm() {
    SyntheticLinearEnvironment env = new SyntheticLinearEnvironment(50, 4, 7);
    for (int arm = 0; arm < 4; arm++) {
      double[] theta = env.parameter(arm);
      int nonZero = 0;
      double l1 = 0;
      for (double v : theta) {
        if (v != 0) {
          nonZero++;
          assertEquals(0.2, v, 1e-15);
        }
        l1 += Math.abs(v);
      }
      assertEquals(SyntheticLinearEnvironment.SPARSITY, nonZero);
      assertEquals(1.0, l1, 1e-12);
    }
  }

  @Test
  void contextsHaveUnitInfinityNormAndMeansAreLinear() {
    SyntheticLinearEnvironment env = new SyntheticLinearEnvironment(20, 3, 11);
    double noiseSquares = 0;
    int draws = 2000;
    for (int t = 0; t < draws; t++) {
      BanditRound round = env.nextRound();
      double[] x = round.context();
      double largest = 0;
      for (double v : x) {
        largest = Math.max(largest, Math.abs(v));
      }
      assertEquals(1.0, largest, 1e-15);
      for (int arm = 0; arm < 3; arm++) {
        double[] theta = env.parameter(arm);
        double mean = 0;
        for (int i = 0; i < x.length; i++) {
          mean += x[i] * theta[i];
        }
        assertEquals(mean, round.meanReward(arm), 1e-12);
        assertTrue(Math.abs(mean) <= 1 + 1e-12, "Hoelder: |x'theta| <= ||x||_inf ||theta||_1");
        double noise = round.observedReward(arm) - mean;
        noiseSquares += noise * noise;
      }
    }
    double noiseSd = Math.sqrt(noiseSquares / (3 * draws));
    assertEquals(SyntheticLinearEnvironment.NOISE_SCALE, noiseSd, 0.003);
  }

  @Test
  void smallDimensionsSetEveryCoordinate() {
    double[] theta = new SyntheticLinearEnvironment(3, 2, 1).parameter(0);
    assertArrayEquals(new double[] {1.0 / 3, 1.0 / 3, 1.0 / 3}, theta, 1e-15);
  }

  @Test
  void aGivenSparsitySetsThatManyCoordinates() {
    for (int sparsity : new int[] {1, 17, 40}) {
      SyntheticLinearEnvironment env = new SyntheticLinearEnvironment(40, 3, sparsity, 13);
      for (int arm = 0; arm < 3; arm++) {
        long nonZero = java.util.Arrays.stream(env.parameter(arm)).filter(v -> v != 0).count();
        double l1 = java.util.Arrays.stream(env.parameter(arm)).map(Math::abs).sum();
        assertEquals(sparsity, nonZero);
        assertEquals(1.0, l1, 1e-12);
      }
    }
  }

  @Test
  void theSameSeedGivesTheSameRounds() {
    SyntheticLinearEnvironment a = new SyntheticLinearEnvironment(10, 2, 5);
    SyntheticLinearEnvironment b = new SyntheticLinearEnvironment(10, 2, 5);
    for (int t = 0; t < 10; t++) {
      BanditRound ra = a.nextRound();
      BanditRound rb = b.nextRound();
      assertArrayEquals(ra.context(), rb.context());
      assertEquals(ra.observedReward(1), rb.observedReward(1));
    }
  }
}
