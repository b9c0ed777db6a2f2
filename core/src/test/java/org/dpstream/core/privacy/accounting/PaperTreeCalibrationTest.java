package org.dpstream.core.privacy.accounting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class PaperTreeCalibrationTest {

  private static final PrivacyBudget ONE_AND_ONE_IN_A_THOUSAND = new PrivacyBudget(1, 1e-3);

  /** The paper's experiment: n = 1000, d = 5, p = 1.5, D = 4, beta = L = 1, (1, 1e-3). */
  private static PaperTreeCalibration paperExperiment(PrivacyBudget budget, long horizon) {
    return PaperTreeCalibration.forOnlineFrankWolfe(
        budget, horizon, NormRegularity.forPrimalExponent(1.5, 5), 1, 4, 1);
  }

  @Test
  void equation32ByHandForThePaperExperiment() {
    // h = ceil(log2 1000) + 1 = 10 + 1 = 11; q = 3; kappa = min{2, e^2 (ln 5 - 1) = 4.503} = 2
    // beta D + L = 1 * 4 + 1 = 5, so s = 2 * 5 = 10
    // ln(h / delta) = ln 11000 = ln 11 + 3 ln 10 = 2.397895 + 6.907755 = 9.305651
    // eq. (3.2): sigma^2 = 8 h^2 kappa ln(h/delta) (beta D + L)^2 / eps^2
    //                    = 8 * 121 * 2 * 9.305651 * 25 / 1 = 48400 * 9.305651 = 450393.5
    // Lemma 2.1 at (eps/h, delta/h): 2 kappa ln(h/delta) s^2 h^2 / eps^2 = 2 * 2 * 9.305651 * 100 * 121: same
    // sigma = sqrt(450393.5) = 671.1136
    PaperTreeCalibration calibration = paperExperiment(ONE_AND_ONE_IN_A_THOUSAND, 1000);
    assertEquals(11, calibration.tree().depth());
    assertEquals(10.0, calibration.leafSensitivity());
    assertEquals(671.1136, calibration.nodeSigma(), 1e-4);
    double equation32 = Math.sqrt(8 * 11 * 11 * 2 * Math.log(11 / 1e-3) * 5 * 5 / (1.0 * 1.0));
    assertTrue(calibration.nodeSigma() >= equation32, "rounded up");
    assertTrue(calibration.nodeSigma() <= equation32 * (1 + 1e-11));
  }

  @Test
  void spentIsBasicCompositionOverReleasedNodes() {
    PaperTreeCalibration calibration = paperExperiment(ONE_AND_ONE_IN_A_THOUSAND, 1000);
    // t = 1: one node: (1/11, 1e-3/11) = (0.0909091, 9.09091e-5), rounded up
    PrivacyBudget first = calibration.spentAfter(1);
    assertEquals(1.0 / 11, first.epsilon(), 1e-12);
    assertTrue(first.epsilon() >= 1.0 / 11 && first.delta() >= 1e-3 / 11);
    // t = 1000: floor(log2 1000) + 1 = 10 nodes: 10/11 = 0.909091
    assertEquals(10.0 / 11, calibration.spentAfter(1000).epsilon(), 1e-12);
    // t = 1024 and beyond: all h = 11 nodes: exactly the budget, never above it
    assertEquals(ONE_AND_ONE_IN_A_THOUSAND, calibration.spentAfter(1024));
    assertEquals(ONE_AND_ONE_IN_A_THOUSAND, calibration.spentAfter(1L << 50));
  }

  @Test
  void spentIsNonDecreasingAndWithinBudgetAtAndPastTheHorizon() {
    for (long horizon : new long[] {1, 2, 3, 7, 1000, 1025}) {
      for (double epsilon : new double[] {0.1, 0.7, 1}) {
        PrivacyBudget budget = new PrivacyBudget(epsilon, 1e-6);
        PaperTreeCalibration calibration = paperExperiment(budget, horizon);
        PrivacyBudget previous = calibration.spentAfter(1);
        for (long t = 2; t <= 4 * horizon; t++) {
          PrivacyBudget current = calibration.spentAfter(t);
          assertTrue(current.epsilon() >= previous.epsilon() && current.delta() >= previous.delta());
          previous = current;
        }
        assertTrue(calibration.spentAfter(horizon).isWithin(budget));
        assertTrue(previous.isWithin(budget));
      }
    }
  }

  @Test
  void moreBudgetMeansLessNoiseAndALongerHorizonMore() {
    double base = paperExperiment(ONE_AND_ONE_IN_A_THOUSAND, 1000).nodeSigma();
    assertTrue(paperExperiment(new PrivacyBudget(2, 1e-3), 1000).nodeSigma() < base);
    assertTrue(paperExperiment(new PrivacyBudget(1, 1e-2), 1000).nodeSigma() < base);
    assertEquals(base, paperExperiment(ONE_AND_ONE_IN_A_THOUSAND, 1024).nodeSigma()); // same h = 11
    assertTrue(paperExperiment(ONE_AND_ONE_IN_A_THOUSAND, 1025).nodeSigma() > base); // h = 12
  }

  @Test
  void lemma21IsValidForTheGaussianCaseWhenPerNodeEpsilonIsAtMostOne() {
    // q = 2 gives kappa = 1 and the l_2 norm: Lemma 2.1 is then the Gaussian mechanism with
    // sigma^2 = 2 ln(1/delta) s^2 / eps^2. With n = 1 (h = 1) the calibration is exactly that.
    NormRegularity euclidean = NormRegularity.forDualExponent(2, 10);
    assertEquals(1.0, euclidean.kappa());
    for (double epsilon : new double[] {0.01, 0.1, 0.5, 1}) {
      for (double delta : new double[] {0.1, 1e-3, 1e-6, 1e-10}) {
        PaperTreeCalibration node = PaperTreeCalibration.of(new PrivacyBudget(epsilon, delta), 1, euclidean, 1);
        assertTrue(GaussianPrivacyCurve.exactDelta(epsilon, 1, node.nodeSigma()) <= delta,
            () -> "eps=" + epsilon + ", delta=" + delta);
      }
    }
  }

  @Test
  void lemma21AsPrintedFailsForLargeEpsilonSoPerNodeEpsilonAboveOneIsRefused() {
    // eps = 10, delta = 1e-3: sigma = sqrt(2 ln 1000) / 10 = 3.7169 / 10 = 0.37169; the exact curve gives
    // Phi(1.3452 - 3.7169) - e^10 Phi(-1.3452 - 3.7169) = 8.85e-3 - 22026 * 2.07e-7 = about 4.3e-3 > 1e-3.
    double sigma = Math.sqrt(2 * Math.log(1000)) / 10;
    assertEquals(4.3e-3, GaussianPrivacyCurve.exactDelta(10, 1, sigma), 0.2e-3);
    NormRegularity euclidean = NormRegularity.forDualExponent(2, 10);
    assertThrows(IllegalArgumentException.class,
        () -> PaperTreeCalibration.of(new PrivacyBudget(10, 1e-3), 1, euclidean, 1));
    // n = 1000 (h = 11): eps = 11 is per-node 1 (accepted); eps = 12 is not.
    PaperTreeCalibration.of(new PrivacyBudget(11, 1e-3), 1000, euclidean, 1);
    assertThrows(IllegalArgumentException.class,
        () -> PaperTreeCalibration.of(new PrivacyBudget(12, 1e-3), 1000, euclidean, 1));
  }

  @Test
  void describesItsLedgerEntryAndPerNodeBudget() {
    PaperTreeCalibration calibration = paperExperiment(ONE_AND_ONE_IN_A_THOUSAND, 1000);
    assertEquals("paper-eq-3.2", calibration.accountant());
    assertEquals(ONE_AND_ONE_IN_A_THOUSAND, calibration.budget());
    assertEquals(1000, calibration.horizon());
    assertEquals(NormRegularity.forPrimalExponent(1.5, 5).kappa(), calibration.regularity().kappa());
    // h = 11: Lemma 2.1 at (1/11, 1e-3/11)
    PrivacyBudget perNode = calibration.perNodeBudget();
    assertEquals(1.0 / 11, perNode.epsilon(), 1e-15);
    assertEquals(1e-3 / 11, perNode.delta(), 1e-18);
    PrivacyLedger ledger = PrivacyLedger.open(calibration);
    assertEquals("paper-eq-3.2", ledger.accountant());
  }

  @Test
  void aLinearLossHasNoSmoothnessTermButAnyNegativeOrNonFiniteConstantIsRefused() {
    // beta = 0 (a linear loss): s = 2 L
    NormRegularity regularity = NormRegularity.forPrimalExponent(1.5, 5);
    assertEquals(2.0, PaperTreeCalibration.forOnlineFrankWolfe(
        ONE_AND_ONE_IN_A_THOUSAND, 1000, regularity, 0, 4, 1).leafSensitivity());
    assertEquals(2.0, PaperTreeCalibration.forOnlineFrankWolfe(
        ONE_AND_ONE_IN_A_THOUSAND, 1000, regularity, 1, 0, 1).leafSensitivity());
    // Each bad constant alone, the others chosen so that s = 2 (beta D + L) would still be positive and finite.
    double[][] bad = {{-1, 1, 5}, {1, -1, 5}, {1, 5, -1}, {Double.NaN, 1, 1}, {Double.POSITIVE_INFINITY, 0, 1},
        {0, Double.POSITIVE_INFINITY, 1}, {1, 1, Double.NaN}};
    // The error names the constant at fault, not the leaf sensitivity it would have made.
    String[] names = {"smoothness beta", "diameter D", "lipschitz L", "smoothness beta", "smoothness beta",
        "diameter D", "lipschitz L"};
    for (int i = 0; i < bad.length; i++) {
      double[] constants = bad[i];
      IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
          () -> PaperTreeCalibration.forOnlineFrankWolfe(
              ONE_AND_ONE_IN_A_THOUSAND, 1000, regularity, constants[0], constants[1], constants[2]),
          () -> Arrays.toString(constants));
      assertTrue(error.getMessage().startsWith(names[i] + " must be non-negative and finite"), error::getMessage);
    }
  }

  @Test
  void aLeafSensitivityThatIsNotPositiveAndFiniteIsRefused() {
    NormRegularity euclidean = NormRegularity.forDualExponent(2, 10);
    for (double bad : new double[] {0, -1, Double.NaN, Double.POSITIVE_INFINITY}) {
      assertThrows(IllegalArgumentException.class,
          () -> PaperTreeCalibration.of(ONE_AND_ONE_IN_A_THOUSAND, 1000, euclidean, bad), "s=" + bad);
    }
  }

  @Test
  void rejectsPureDpBudget() {
    assertThrows(IllegalArgumentException.class, () -> paperExperiment(new PrivacyBudget(1, 0), 1000));
  }
}
