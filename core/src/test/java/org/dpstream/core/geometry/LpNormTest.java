package org.dpstream.core.geometry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class LpNormTest {

  private static final double INF = Double.POSITIVE_INFINITY;

  @ParameterizedTest
  @ValueSource(doubles = {1, 1.01, 1.5, 2, 3, 20, INF})
  void agreesWithNaiveSumsOnWellScaledInput(double p) {
    RandomVectors random = RandomVectors.seeded(11);
    LpNorm norm = LpNorm.of(p);
    for (int trial = 0; trial < 200; trial++) {
      double[] x = random.gaussian(1 + random.index(30));
      double expected = RandomVectors.naiveNorm(x, p);
      assertEquals(expected, norm.valueOf(x), 1e-13 * expected, () -> "p=" + p);
    }
  }

  @ParameterizedTest
  @ValueSource(doubles = {1, 1.01, 1.5, 2, 3, 20, INF})
  void hugeAndTinyEntriesNeitherOverflowNorUnderflow(double p) {
    LpNorm norm = LpNorm.of(p);
    int d = 10;
    double dPower = p == INF ? 1 : Math.pow(d, 1 / p);
    for (double magnitude : new double[] {1e300, 1e-300, Double.MIN_NORMAL, 1e-320}) {
      double[] x = new double[d];
      for (int i = 0; i < d; i++) {
        x[i] = i % 2 == 0 ? magnitude : -magnitude;
      }
      double expected = magnitude * dPower;
      double tolerance = magnitude < Double.MIN_NORMAL ? 4 * Double.MIN_VALUE : 1e-13 * expected;
      assertEquals(expected, norm.valueOf(x), tolerance, () -> "p=" + p + ", entries " + magnitude);
    }
  }

  @Test
  void naiveSumsWouldFailWhereTheScaledNormDoesNot() {
    double[] x = {1e300, 1e300};
    assertEquals(INF, RandomVectors.naiveNorm(x, 2));
    assertEquals(Math.sqrt(2) * 1e300, LpNorm.L2.valueOf(x), 1e287);
    double[] y = {1e-300, 1e-300};
    assertEquals(0, RandomVectors.naiveNorm(y, 3));
    assertEquals(Math.cbrt(2) * 1e-300, LpNorm.of(3).valueOf(y), 1e-313);
  }

  @Test
  void exactOnSmallIntegerExamples() {
    double[] x = {3, -4};
    assertEquals(7, LpNorm.L1.valueOf(x));
    assertEquals(5, LpNorm.L2.valueOf(x));
    assertEquals(4, LpNorm.LINF.valueOf(x));
  }

  @Test
  void specialVectors() {
    for (double p : new double[] {1, 1.5, 2, INF}) {
      LpNorm norm = LpNorm.of(p);
      assertEquals(0, norm.valueOf(new double[0]));
      assertEquals(0, norm.valueOf(new double[] {0, -0.0}));
      assertEquals(INF, norm.valueOf(new double[] {1, INF}));
      assertTrue(Double.isNaN(norm.valueOf(new double[] {1, Double.NaN})));
    }
  }

  @Test
  void dualExponents() {
    assertEquals(INF, LpNorm.dualExponent(1));
    assertEquals(1, LpNorm.dualExponent(INF));
    assertEquals(2, LpNorm.dualExponent(2));
    assertEquals(3, LpNorm.dualExponent(1.5), 1e-15);
    assertEquals(1.5, LpNorm.dualExponent(3), 1e-15);
    assertSame(LpNorm.LINF, LpNorm.L1.dual());
    assertSame(LpNorm.L1, LpNorm.LINF.dual());
    assertSame(LpNorm.L2, LpNorm.L2.dual());
    assertEquals(1.5, LpNorm.of(1.5).dual().dual().exponent(), 1e-15);
  }

  @Test
  void holderInequalityHoldsForDualPairs() {
    RandomVectors random = RandomVectors.seeded(12);
    for (double p : new double[] {1, 1.3, 2, 4, INF}) {
      LpNorm norm = LpNorm.of(p);
      for (int trial = 0; trial < 100; trial++) {
        double[] a = random.gaussian(7);
        double[] b = random.gaussian(7);
        double bound = norm.valueOf(a) * norm.dual().valueOf(b);
        assertTrue(Math.abs(RandomVectors.dot(a, b)) <= bound * (1 + 1e-14));
      }
    }
  }

  @Test
  void rejectsExponentsBelowOne() {
    IllegalArgumentException error =
        assertThrows(IllegalArgumentException.class, () -> LpNorm.of(0.5));
    assertEquals(
        "exponent p must be in [1, infinity] (Double.POSITIVE_INFINITY for infinity), got 0.5",
        error.getMessage());
    assertThrows(IllegalArgumentException.class, () -> LpNorm.of(Double.NaN));
    assertThrows(IllegalArgumentException.class, () -> LpNorm.dualExponent(-INF));
  }
}
