package org.dpstream.core.online;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.commons.rng.simple.RandomSource;
import org.dpstream.core.privacy.accounting.ExponentialMechanismCalibration;
import org.dpstream.core.privacy.accounting.PrivacyBudget;
import org.dpstream.core.privacy.accounting.ReportNoisyMaxCalibration;
import org.dpstream.core.privacy.noise.IidVectorNoise;
import org.junit.jupiter.api.Test;

/**
 * The noisy vertex choice's perturbations at step k are the unit draws times the calibration's scale at k: Lap(b_k)
 * for Algorithm 2's report-noisy-min, and minus Gumbel(beta_k) for the exponential mechanism (argmin of the score
 * minus a Gumbel is argmax of its negation plus one). A scale left out, inverted or of the wrong sign would change
 * the mechanism the calibration accounts for.
 */
class VertexChoiceTest {

  private static final PrivacyBudget BUDGET = new PrivacyBudget(1, 1e-5);
  private static final int VERTICES = 6;

  @Test
  void reportNoisyMinAddsLaplaceOfTheStepsScale() {
    ReportNoisyMaxCalibration calibration = ReportNoisyMaxCalibration.of(BUDGET, 1000, 2, 0.5, 0.7);
    IidVectorNoise unit = IidVectorNoise.laplace(VERTICES, 1.0);
    VertexChoice choice = new VertexChoice.Laplace(calibration, unit);
    for (long k : new long[] {1, 2, 17, 1000}) {
      double scale = calibration.laplaceScaleAt(k);
      assertTrue(scale > 0 && scale != 1, "a scale that tells b from 1 / b: " + scale);
      assertArrayEquals(scaled(unit, k, scale), perturbations(choice, k), "k = " + k);
    }
  }

  @Test
  void theExponentialMechanismSubtractsGumbelOfTheStepsScale() {
    ExponentialMechanismCalibration calibration = ExponentialMechanismCalibration.of(BUDGET, 1000, 2, 0.5, 0.7);
    IidVectorNoise unit = IidVectorNoise.gumbel(VERTICES, 1.0);
    VertexChoice choice = new VertexChoice.Gumbel(calibration, unit);
    for (long k : new long[] {1, 2, 17, 1000}) {
      double scale = calibration.gumbelScaleAt(k);
      assertTrue(scale > 0 && scale != 1, "a scale that tells beta from 1 / beta: " + scale);
      assertArrayEquals(scaled(unit, k, -scale), perturbations(choice, k), "k = " + k);
    }
  }

  private static double[] perturbations(VertexChoice choice, long k) {
    double[] out = new double[VERTICES];
    choice.perturbations(RandomSource.XO_RO_SHI_RO_128_PP.create(k), k, out);
    return out;
  }

  private static double[] scaled(IidVectorNoise unit, long k, double scale) {
    double[] draw = new double[VERTICES];
    unit.sample(RandomSource.XO_RO_SHI_RO_128_PP.create(k), draw);
    for (int i = 0; i < VERTICES; i++) {
      draw[i] *= scale;
    }
    return draw;
  }
}
