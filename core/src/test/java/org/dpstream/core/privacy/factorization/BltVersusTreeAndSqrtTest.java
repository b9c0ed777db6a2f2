package org.dpstream.core.privacy.factorization;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Locale;
import org.apache.commons.statistics.distribution.ChiSquaredDistribution;
import org.dpstream.core.privacy.accounting.GaussianTreeCalibration;
import org.dpstream.core.privacy.accounting.GaussianZcdpMap;
import org.dpstream.core.privacy.accounting.SensitivityStructure;
import org.dpstream.core.privacy.accounting.PrivacyBudget;
import org.dpstream.core.privacy.accounting.ZcdpBudget;
import org.dpstream.core.privacy.accounting.ZcdpConversion;
import org.dpstream.core.privacy.noise.IidVectorNoise;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.testing.TestKeys;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestReporter;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The point of the BLT: at the same budget and horizon, the worst per-step noise variance of a release is the
 * square root's (within 1%) and far below the binary tree's, at O(d) cost per step.
 *
 * <p>Per coordinate, the tree's release at t sums popcount(t) nodes of variance sigma_tree^2; the square root's
 * has sigma^2 F_sqrt(t); the BLT's sigma_blt^2 E(t), largest at t = n. All calibrated in zCDP with the tight
 * conversion at eps = 1, delta = 1e-4, S = 1, and every sigma scales as sqrt(F(n) / rho_max), so the ratios are
 * functions of the matrices alone: BLT / sqrt = F(n) E(n) / F_sqrt(n)^2, BLT / tree = F(n) E(n) / (h max popcount).
 */
class BltVersusTreeAndSqrtTest {

  private static final PrivacyBudget BUDGET = new PrivacyBudget(1, 1e-4);

  private static GaussianZcdpMap blt(BltStrategy strategy, long horizon, double sensitivity) {
    return GaussianZcdpMap.calibrate("zcdp-cks20-blt", ZcdpBudget.of(BUDGET, ZcdpConversion.TIGHT), sensitivity,
        SensitivityStructure.toeplitz(horizon, strategy::squaredColumnNormUpperBounds));
  }

  @ParameterizedTest
  @ValueSource(longs = {1000, 10_000})
  void worstStepVarianceIsTheSquareRootsAndBelowTheTrees(long horizon, TestReporter reporter) {
    BltStrategy strategy = BltOptimizer.forHorizon(horizon);
    GaussianTreeCalibration tree = GaussianTreeCalibration.of(ZcdpBudget.of(BUDGET), horizon, 1);
    SqrtFactorizationCalibration sqrt = SqrtFactorizationCalibration.of(ZcdpBudget.of(BUDGET), horizon, 1);
    GaussianZcdpMap blt = blt(strategy, horizon, 1);
    int worstPopcount = 63 - Long.numberOfLeadingZeros(horizon + 1);
    double treeWorst = worstPopcount * tree.nodeSigma() * tree.nodeSigma();
    double sqrtColumn = PrefixSumSquareRoot.squaredColumnNorm(horizon);
    double sqrtWorst = sqrt.noiseSigma() * sqrt.noiseSigma() * sqrtColumn;
    double bltWorst = blt.sigma() * blt.sigma() * strategy.squaredErrorRowNorm(horizon);
    reporter.publishEntry("worst-variance-n" + horizon, String.format(Locale.ROOT,
        "tree %.4f (sigma %.4f), sqrt %.4f (sigma %.4f), blt %.4f (sigma %.4f): blt/sqrt %.4f, blt/tree %.4f",
        treeWorst, tree.nodeSigma(), sqrtWorst, sqrt.noiseSigma(), bltWorst, blt.sigma(), bltWorst / sqrtWorst,
        bltWorst / treeWorst));
    double expectedVersusSqrt = strategy.maxLoss(horizon) / (sqrtColumn * sqrtColumn);
    double expectedVersusTree = strategy.maxLoss(horizon) / (tree.tree().depth() * worstPopcount);
    assertEquals(expectedVersusSqrt, bltWorst / sqrtWorst, 1e-6 * expectedVersusSqrt);
    assertEquals(expectedVersusTree, bltWorst / treeWorst, 1e-6 * expectedVersusTree);
    assertTrue(bltWorst / sqrtWorst < 1.01, "within 1% of the square root");
    assertTrue(bltWorst / treeWorst < 0.11, "below a ninth of the tree's");
  }

  /**
   * Empirical: 2000 independent streams (distinct stream ids) of zero leaves, D = 4 coordinates, horizon 1000;
   * the noise of the release at t is N(0, sigma^2 E(t)) per coordinate, so the sum of squares over the variance
   * is chi-square with 8000 degrees of freedom. Each of the 6 checks uses a two-sided interval at 1e-5, so a
   * fresh key would fail with probability at most 6e-5; the key is fixed, so the test is deterministic. At the
   * last step the observed variance is also checked against the tree's prediction there (popcount(1000) = 6 nodes
   * is not the worst, yet the BLT must still be far below).
   */
  @Test
  void releaseNoiseVarianceIsSigmaSquaredTimesTheRowNorm() {
    int dimension = 4;
    long horizon = 1000;
    int streams = 2000;
    BltStrategy strategy = BltOptimizer.forHorizon(horizon);
    GaussianZcdpMap calibration = blt(strategy, horizon, 2);
    double sigma = calibration.sigma();
    KeyedNoiseSource source = new KeyedNoiseSource(TestKeys.seeded(44));
    int[] checkedSteps = {1, 2, 5, 16, 40, 1000};
    double[] meanSquares = EpochedPrefixSumContract.meanSquaredReleases(s -> BltPrefixSum.start(strategy, horizon,
        source.forStream(BltPrefixSum.NOISE_PURPOSE, "variance-" + s), IidVectorNoise.gaussian(dimension, sigma)),
        streams, checkedSteps);
    int samples = streams * dimension;
    ChiSquaredDistribution chi2 = ChiSquaredDistribution.of(samples);
    double observedAtHorizon = 0;
    for (int c = 0; c < checkedSteps.length; c++) {
      double expected = sigma * sigma * strategy.squaredErrorRowNorm(checkedSteps[c]);
      double observed = meanSquares[c];
      double low = expected * chi2.inverseCumulativeProbability(0.5e-5) / samples;
      double high = expected * chi2.inverseSurvivalProbability(0.5e-5) / samples;
      assertTrue(observed > low && observed < high,
          "t=" + checkedSteps[c] + ": variance " + observed + " outside [" + low + ", " + high + "]");
      observedAtHorizon = observed;
    }
    GaussianTreeCalibration tree = GaussianTreeCalibration.of(ZcdpBudget.of(BUDGET), horizon, 2);
    double treeAtHorizon = Long.bitCount(horizon) * tree.nodeSigma() * tree.nodeSigma();
    assertTrue(observedAtHorizon < 0.2 * treeAtHorizon, observedAtHorizon + " vs tree " + treeAtHorizon);
  }
}
