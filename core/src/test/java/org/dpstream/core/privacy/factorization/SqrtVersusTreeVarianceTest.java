package org.dpstream.core.privacy.factorization;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Locale;
import org.dpstream.core.privacy.accounting.GaussianTreeCalibration;
import org.dpstream.core.privacy.accounting.PrivacyBudget;
import org.dpstream.core.privacy.accounting.ZcdpBudget;
import org.junit.jupiter.api.TestReporter;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The point of the factorization: at the same budget and horizon, the worst per-step noise variance of a
 * release is smaller than the binary tree's.
 *
 * <p>Per coordinate, the tree's release at t sums popcount(t) nodes of variance sigma_tree^2; the square
 * root's sums sigma^2 sum_{k &lt; t} r_k^2, largest at t = n. Both calibrated with zCDP and the tight
 * conversion at eps = 1, delta = 1e-4, S = 1. Both sigmas scale as 1/sqrt(rho_max), so the ratio is
 * (sum_{k&lt;n} r_k^2)^2 / (h max popcount), whatever the conversion: 3.265^2 / (11 * 9) = 0.108 at n = 1000
 * and 3.998^2 / (15 * 13) = 0.082 at n = 10000.
 */
class SqrtVersusTreeVarianceTest {

  private static final PrivacyBudget BUDGET = new PrivacyBudget(1, 1e-4);

  @ParameterizedTest
  @ValueSource(longs = {1000, 10_000})
  void worstStepVarianceIsBelowTheTrees(long horizon, TestReporter reporter) {
    GaussianTreeCalibration tree = GaussianTreeCalibration.of(ZcdpBudget.of(BUDGET), horizon, 1);
    SqrtFactorizationCalibration sqrt = SqrtFactorizationCalibration.of(ZcdpBudget.of(BUDGET), horizon, 1);
    int worstPopcount = 0;
    for (long t = 1; t <= horizon; t++) {
      worstPopcount = Math.max(worstPopcount, Long.bitCount(t));
    }
    double treeWorst = worstPopcount * tree.nodeSigma() * tree.nodeSigma();
    double sqrtWorst = sqrt.noiseSigma() * sqrt.noiseSigma() * PrefixSumSquareRoot.squaredColumnNorm(horizon);
    double ratio = sqrtWorst / treeWorst;
    reporter.publishEntry("variance-ratio-n" + horizon, String.format(Locale.ROOT,
        "sqrt %.4f (sigma %.4f) / tree %.4f (sigma %.4f, popcount %d) = %.4f",
        sqrtWorst, sqrt.noiseSigma(), treeWorst, tree.nodeSigma(), worstPopcount, ratio));
    double expected = Math.pow(PrefixSumSquareRoot.squaredColumnNorm(horizon), 2) / (tree.tree().depth() * worstPopcount);
    assertEquals(expected, ratio, 1e-6 * expected, "the ratio is a function of n alone");
    assertTrue(ratio < 0.11, () -> "ratio " + ratio);
  }
}
