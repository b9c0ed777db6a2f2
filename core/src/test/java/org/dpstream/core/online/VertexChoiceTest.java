package org.dpstream.core.online;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.LongToDoubleFunction;
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
    assertPerturbationsAreTheUnitDrawsTimes(new VertexChoice.Laplace(calibration, unit), unit,
        calibration::laplaceScaleAt);
  }

  @Test
  void theExponentialMechanismSubtractsGumbelOfTheStepsScale() {
    ExponentialMechanismCalibration calibration = ExponentialMechanismCalibration.of(BUDGET, 1000, 2, 0.5, 0.7);
    IidVectorNoise unit = IidVectorNoise.gumbel(VERTICES, 1.0);
    assertPerturbationsAreTheUnitDrawsTimes(new VertexChoice.Gumbel(calibration, unit), unit,
        k -> -calibration.gumbelScaleAt(k));
  }

  /** At steps 1, 2, 17 and 1000, the perturbations are the unit draws times {@code factor(k)}, whose size is not 1. */
  private static void assertPerturbationsAreTheUnitDrawsTimes(VertexChoice choice, IidVectorNoise unit,
      LongToDoubleFunction factor) {
    for (long k : new long[] {1, 2, 17, 1000}) {
      double scale = factor.applyAsDouble(k);
      assertTrue(Math.abs(scale) > 0 && Math.abs(scale) != 1, "a scale that tells s from 1 / s: " + scale);
      assertArrayEquals(scaled(unit, k, scale), perturbations(choice, k), "k = " + k);
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
