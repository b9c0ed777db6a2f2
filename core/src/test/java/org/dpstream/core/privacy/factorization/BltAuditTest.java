package org.dpstream.core.privacy.factorization;

import static org.dpstream.core.privacy.audit.PrefixSumAudit.BUDGET;
import static org.dpstream.core.privacy.audit.PrefixSumAudit.HORIZON;
import static org.dpstream.core.privacy.audit.PrefixSumAudit.SENSITIVITY;

import org.dpstream.core.privacy.accounting.GaussianZcdpMap;
import org.dpstream.core.privacy.accounting.SensitivityStructure;
import org.dpstream.core.privacy.accounting.ZcdpBudget;
import org.dpstream.core.privacy.audit.PrefixSumAudit;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.testing.TestKeys;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestReporter;

/**
 * The empirical audit ({@link PrefixSumAudit}) on the calibrated BLT mechanism, optimised parameters included.
 *
 * <p>The releases are y = A C^{-1} (C x + z), so the first differences v = A^{-1} y = C^{-1}(C x + z) and
 * u = C v = C x + z (C applied with its Toeplitz coefficients); the neighbours' u differ by 2S C e_1. The projection
 * &lt;u, C e_1&gt; is the likelihood-ratio statistic: its mean moves by 2S ||C e_1||^2 with standard deviation
 * sigma ||C e_1||, exactly the Gaussian mechanism the accountant charges.
 */
class BltAuditTest {

  private static final BltStrategy STRATEGY = BltOptimizer.forHorizon(HORIZON);
  private static final GaussianZcdpMap CALIBRATION = GaussianZcdpMap.calibrate("zcdp-cks20-blt", ZcdpBudget.of(BUDGET),
      SENSITIVITY, SensitivityStructure.toeplitz(HORIZON, STRATEGY::squaredColumnNormUpperBounds));
  private static final KeyedNoiseSource SOURCE = new KeyedNoiseSource(TestKeys.seeded(8));
  private static final double[] C = STRATEGY.coefficients(HORIZON);

  private static final PrefixSumAudit AUDIT = PrefixSumAudit.of(streamId -> BltPrefixSum.start(1, STRATEGY,
      CALIBRATION, SOURCE.forStream(BltPrefixSum.NOISE_PURPOSE, streamId)), BltAuditTest::strategyProjection);

  /** &lt;C A^{-1} y, C e_1&gt;. */
  private static double strategyProjection(double[] releases) {
    double[] differences = new double[HORIZON + 1];
    double previous = 0;
    double statistic = 0;
    for (int t = 1; t <= HORIZON; t++) {
      differences[t] = releases[t - 1] - previous;
      previous = releases[t - 1];
      double u = 0;
      for (int s = 1; s <= t; s++) {
        u += C[t - s] * differences[s];
      }
      statistic += C[t - 1] * u;
    }
    return statistic;
  }

  @Test
  void calibratedMechanismWithClippingPassesTheAudit(TestReporter reporter) {
    AUDIT.assertPasses(81L, reporter);
  }

  @Test
  void fiveTimesTheCalibratedSensitivityIsCaught(TestReporter reporter) {
    AUDIT.assertUnclippedIsCaught(82L, reporter);
  }
}
