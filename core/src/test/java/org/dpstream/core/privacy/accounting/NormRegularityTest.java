package org.dpstream.core.privacy.accounting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.dpstream.core.privacy.accounting.NormRegularity.SmoothNorm;
import org.junit.jupiter.api.Test;

class NormRegularityTest {

  @Test
  void paperExperimentSettingPEqualsOnePointFiveDimensionFive() {
    // p = 1.5 -> q = 1.5 / 0.5 = 3. Lemma 3.2: kappa = min{3 - 1, e^2 (ln 5 - 1)} = min{2, 7.389 * 0.609}
    // = min{2, 4.503} = 2, realised by l_3 itself (kappa_+ = 2). The literal q+ = min{2, ln 5 - 1 = 0.609}
    // would be 0.609, not a norm; our reading gives exponent q = 3.
    NormRegularity regularity = NormRegularity.forPrimalExponent(1.5, 5);
    assertEquals(3.0, regularity.dualExponent());
    assertEquals(2.0, regularity.kappa());
    assertEquals(2.0, regularity.smoothness());
    assertEquals(SmoothNorm.LP, regularity.smoothNorm());
    assertEquals(3.0, regularity.smoothNormExponent());
  }

  @Test
  void largeDualExponentInLargeDimensionUsesLogDimensionNorm() {
    // d = 1000, q = inf: kappa = e^2 (ln 1000 - 1) = 7.389056 * 5.907755 = 43.6527; l_r with r = ln 1000 = 6.9078
    NormRegularity regularity = NormRegularity.forDualExponent(Double.POSITIVE_INFINITY, 1000);
    assertEquals(43.6527, regularity.kappa(), 1e-4);
    assertEquals(5.907755, regularity.smoothness(), 1e-6);
    assertEquals(6.907755, regularity.smoothNormExponent(), 1e-6);
    // d = 8 is the smallest dimension where ln d >= 2, so kappa_+ = ln d - 1 >= 1: e^2 (2.0794 - 1) = 7.976
    assertEquals(7.976, NormRegularity.forDualExponent(10, 8).kappa(), 1e-3);
  }

  @Test
  void smallDimensionWherePaperValueHasNoValidNormFallsBackToTheBestValidOne() {
    // d = 5, q = 10: paper's min{9, 4.503} = 4.503 would need l_{0.609}. Valid: l_10 (9) or l_2 with
    // kappa = 5^(1 - 2/10) = 5^0.8 = 3.6239.
    NormRegularity regularity = NormRegularity.forDualExponent(10, 5);
    assertEquals(3.6239, regularity.kappa(), 1e-4);
    assertEquals(SmoothNorm.SCALED_L2, regularity.smoothNorm());
    assertTrue(regularity.source().startsWith("outside Lemma 3.2"));
    // q = inf, d = 5: l_2 with kappa = d = 5
    assertEquals(5.0, NormRegularity.forDualExponent(Double.POSITIVE_INFINITY, 5).kappa(), 1e-12);
  }

  @Test
  void lemma33ForDualExponentBelowTwo() {
    // p = 4 -> q = 4/3; kappa = d^(1 - 2/4) = sqrt(d); scale d^(1/2 - 1/4) = d^(1/4). d = 16: 4 and 2.
    NormRegularity regularity = NormRegularity.forPrimalExponent(4, 16);
    assertEquals(4.0, regularity.kappa(), 1e-12);
    assertEquals(2.0, regularity.euclideanScale(), 1e-12);
    assertEquals(SmoothNorm.SCALED_L2, regularity.smoothNorm());
    // p = inf -> q = 1: kappa = d, scale sqrt(d)
    assertEquals(16.0, NormRegularity.forPrimalExponent(Double.POSITIVE_INFINITY, 16).kappa(), 1e-12);
  }

  @Test
  void everyResultSatisfiesDefinition22OnExtremalVectors() {
    // ||x||_q^2 <= ||x||_+^2 <= (kappa / kappa_+) ||x||_q^2, checked on e_1 and the all-ones vector (the
    // extremes of every l_r / l_q ratio) and on a mixed vector.
    for (int d : new int[] {1, 2, 5, 7, 8, 20, 1000}) {
      for (double q : new double[] {1, 1.25, 1.5, 2, 3, 10, Double.POSITIVE_INFINITY}) {
        NormRegularity regularity = NormRegularity.forDualExponent(q, d);
        assertTrue(regularity.smoothness() >= 1 && regularity.smoothness() <= regularity.kappa() + 1e-12,
            regularity::toString);
        for (double[] x : new double[][] {basisVector(d), ones(d), ramp(d)}) {
          double dual = lpNorm(x, q);
          double smooth = regularity.euclideanScale() * lpNorm(x, regularity.smoothNormExponent());
          double ratio = regularity.kappa() / regularity.smoothness();
          assertTrue(dual <= smooth * (1 + 1e-12), () -> "lower " + regularity);
          assertTrue(smooth * smooth <= ratio * dual * dual * (1 + 1e-12), () -> "upper " + regularity);
        }
      }
    }
  }

  @Test
  void primalL1HasTheMaxNormAsItsDual() {
    // p = 1 is in range: q = inf, and in d = 1000 Lemma 3.2 via l_{ln d} applies
    NormRegularity regularity = NormRegularity.forPrimalExponent(1, 1000);
    assertEquals(Double.POSITIVE_INFINITY, regularity.dualExponent());
    assertEquals(1000, regularity.dimension());
    assertEquals(NormRegularity.forDualExponent(Double.POSITIVE_INFINITY, 1000).kappa(), regularity.kappa());
  }

  @Test
  void atQEqualsTwoTheEuclideanNormIsItsOwnSmoothNormUnderLemma32() {
    // q = 2: l_2 is 1-smooth, kappa = q - 1 = 1 in every dimension, and Lemma 3.2's l_q branch (not Lemma 3.3's
    // scaled l_2, which is for q < 2) produces it; in d <= 3, where e^2 (ln d - 1) < 1, the l_2 embedding ties
    // with l_q itself (d^0 = 1 = q - 1) and l_q is kept.
    for (int d : new int[] {1, 2, 3, 10}) {
      NormRegularity regularity = NormRegularity.forDualExponent(2, d);
      assertEquals(1.0, regularity.kappa(), "d=" + d);
      assertEquals(SmoothNorm.LP, regularity.smoothNorm(), "d=" + d);
      assertEquals(2.0, regularity.smoothNormExponent(), "d=" + d);
      assertEquals(d <= 3 ? "outside Lemma 3.2 (d <= 7): l_q itself, kappa = q - 1" : "Lemma 3.2 via l_q",
          regularity.source(), "d=" + d);
    }
  }

  @Test
  void rejectsInvalidExponentsAndDimensions() {
    assertThrows(IllegalArgumentException.class, () -> NormRegularity.forDualExponent(0.5, 5));
    assertThrows(IllegalArgumentException.class, () -> NormRegularity.forPrimalExponent(Double.NaN, 5));
    assertThrows(IllegalArgumentException.class, () -> NormRegularity.forDualExponent(2, 0));
    // an exponent below 1 is reported as the caller named it, p or q
    for (double p : new double[] {0.5, 0, -2}) {
      IllegalArgumentException error =
          assertThrows(IllegalArgumentException.class, () -> NormRegularity.forPrimalExponent(p, 5), "p=" + p);
      assertEquals("p must be in [1, inf], got " + p, error.getMessage());
    }
  }

  private static double[] basisVector(int d) {
    double[] x = new double[d];
    x[0] = 1;
    return x;
  }

  private static double[] ones(int d) {
    double[] x = new double[d];
    Arrays.fill(x, 1);
    return x;
  }

  private static double[] ramp(int d) {
    double[] x = new double[d];
    for (int i = 0; i < d; i++) {
      x[i] = i + 1;
    }
    return x;
  }

  private static double lpNorm(double[] x, double r) {
    if (r == Double.POSITIVE_INFINITY) {
      return Arrays.stream(x).map(Math::abs).max().orElse(0);
    }
    return Math.pow(Arrays.stream(x).map(v -> Math.pow(Math.abs(v), r)).sum(), 1 / r);
  }
}
