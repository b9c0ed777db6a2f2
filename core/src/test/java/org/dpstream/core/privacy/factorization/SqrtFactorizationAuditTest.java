package org.dpstream.core.privacy.factorization;

import static org.dpstream.core.privacy.audit.PrefixSumAudit.BUDGET;
import static org.dpstream.core.privacy.audit.PrefixSumAudit.HORIZON;
import static org.dpstream.core.privacy.audit.PrefixSumAudit.SENSITIVITY;

import org.dpstream.core.privacy.audit.PrefixSumAudit;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.testing.TestKeys;
import org.dpstream.core.privacy.accounting.ZcdpBudget;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestReporter;

/**
 * The empirical audit ({@link PrefixSumAudit}) on the calibrated square-root mechanism.
 *
 * <p>The releases are y = C (C x + z), so w = C^{-1} y = C x + z (forward substitution) and the neighbours' w
 * differ by 2S C e_1, which is nonzero in every released row. The projection &lt;w, C e_1&gt; is then the
 * likelihood-ratio statistic: its mean moves by 2S ||C e_1||^2 with standard deviation sigma ||C e_1||, exactly
 * the Gaussian mechanism the accountant charges, so the audit is as strong as this pair of inputs allows.
 */
class SqrtFactorizationAuditTest {

  private static final SqrtFactorizationCalibration CALIBRATION =
      SqrtFactorizationCalibration.of(ZcdpBudget.of(BUDGET), HORIZON, SENSITIVITY);
  private static final KeyedNoiseSource SOURCE = new KeyedNoiseSource(TestKeys.seeded(6));
  private static final double[] R = PrefixSumSquareRoot.coefficients(HORIZON);

  private static final PrefixSumAudit AUDIT = PrefixSumAudit.of(streamId -> SqrtFactorizationPrefixSum.start(1,
      CALIBRATION, SOURCE.forStream(SqrtFactorizationPrefixSum.NOISE_PURPOSE, streamId)),
      SqrtFactorizationAuditTest::whitenedProjection);

  /** &lt;w, C e_1&gt; with w_t = y_t - sum_{i &lt; t} r_{t-i} w_i. */
  private static double whitenedProjection(double[] releases) {
    double[] whitened = new double[HORIZON + 1];
    double statistic = 0;
    for (int t = 1; t <= HORIZON; t++) {
      double w = releases[t - 1];
      for (int i = 1; i < t; i++) {
        w -= R[t - i] * whitened[i];
      }
      whitened[t] = w;
      statistic += R[t - 1] * w;
    }
    return statistic;
  }

  @Test
  void calibratedMechanismWithClippingPassesTheAudit(TestReporter reporter) {
    AUDIT.assertPasses(61L, reporter);
  }

  @Test
  void fiveTimesTheCalibratedSensitivityIsCaught(TestReporter reporter) {
    AUDIT.assertUnclippedIsCaught(62L, reporter);
  }
}
