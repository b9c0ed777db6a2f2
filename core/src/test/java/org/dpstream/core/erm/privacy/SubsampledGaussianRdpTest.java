package org.dpstream.core.erm.privacy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpstream.core.privacy.accounting.PrivacyBudget;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestReporter;

class SubsampledGaussianRdpTest {

  @Test
  void orderTwoAndThreeMatchTheBinomialSumWorkedByHand() {
    // q = 1/2, z = 1: A_2 = 1 + q^2 (e - 1) = 1.42957..., ln A_2 = 0.357374019508788;
    // A_3 = sum_k binom(3,k) (1/2)^3 e^{(k^2-k)/2} = (1 + 3 + 3e + e^3)/8, R(3) = ln(A_3)/2 = 0.696889118598044.
    // Values are widened by the documented relative 1e-9, never below the exact value.
    assertRoundedUp(0.357374019508788, SubsampledGaussianRdp.rdp(0.5, 1.0, 2));
    assertRoundedUp(0.696889118598044, SubsampledGaussianRdp.rdp(0.5, 1.0, 3));
  }

  @Test
  void fullSamplingIsThePlainGaussian() {
    // q = 1: R(alpha) = alpha / (2 z^2); z = 2, alpha = 10 gives 1.25.
    assertRoundedUp(1.25, SubsampledGaussianRdp.rdp(1.0, 2.0, 10));
  }

  private static void assertRoundedUp(double exact, double computed) {
    assertTrue(computed >= exact, computed + " < " + exact);
    assertEquals(exact, computed, 3e-9 * exact);
  }

  @Test
  void calibrationMatchesAHandWorkedValue(TestReporter reporter) {
    // A hand-worked value: q = 0.001, S = 30 000, delta = 1e-8, epsilon = 1, classic conversion: z ~ 1.404.
    PrivacyBudget budget = new PrivacyBudget(1.0, 1e-8);
    SubsampledGaussianRdp calibrated =
        SubsampledGaussianRdp.calibrate(0.001, 30_000, budget, RdpConversion.CLASSIC);
    reporter.publishEntry("z", calibrated.describe(30_000, 1e-8, RdpConversion.CLASSIC));
    assertEquals(1.404, calibrated.noiseMultiplier(), 0.005);
    assertTrue(calibrated.epsilon(30_000, 1e-8, RdpConversion.CLASSIC) <= 1.0, "calibrated z passes");
    SubsampledGaussianRdp slightlyLess = SubsampledGaussianRdp.of(0.001, calibrated.noiseMultiplier() * 0.999);
    assertTrue(slightlyLess.epsilon(30_000, 1e-8, RdpConversion.CLASSIC) > 1.0, "and is nearly the smallest");
  }

  @Test
  void classicMnistExampleGivesAboutThree(TestReporter reporter) {
    // A sanity check (Abadi et al., "Deep Learning with Differential Privacy", 2016: their MNIST setting): q = 256/60000, z = 1.1, 14 062 steps, delta = 1e-5.
    SubsampledGaussianRdp accountant = SubsampledGaussianRdp.of(256.0 / 60_000, 1.1);
    double classic = accountant.epsilon(14_062, 1e-5, RdpConversion.CLASSIC);
    double improved = accountant.epsilon(14_062, 1e-5, RdpConversion.IMPROVED);
    reporter.publishEntry("eps", "classic " + classic + ", improved " + improved);
    assertEquals(3.01, classic, 0.03);
    assertTrue(improved < classic);
  }
}
