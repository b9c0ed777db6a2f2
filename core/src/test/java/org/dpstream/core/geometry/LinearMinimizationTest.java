package org.dpstream.core.geometry;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link LpBall#minimizeLinear}: Hölder equality, brute force, ties, zero and extreme inputs. */
class LinearMinimizationTest {

  private static final double INF = Double.POSITIVE_INFINITY;
  private static final int[] DIMENSIONS = {1, 2, 5, 20};

  @ParameterizedTest
  @ValueSource(doubles = {1, 1.01, 1.5, 2, 3, 20, INF})
  void attainsHolderEqualityOnTheSphere(double p) {
    RandomVectors random = RandomVectors.seeded(21);
    for (int d : DIMENSIONS) {
      for (int trial = 0; trial < 50; trial++) {
        LpBall ball = LpBall.of(p, 0.5 + 3 * random.uniform());
        double[] g = random.gaussian(d);
        double[] v = ball.minimizeLinear(g);
        assertHolderEquality(ball, g, v, 1e-12);
      }
    }
  }

  @ParameterizedTest
  @ValueSource(doubles = {1, 1.01, 1.5, 2, 3, 20, INF})
  void noSampledFeasiblePointDoesBetter(double p) {
    RandomVectors random = RandomVectors.seeded(22);
    for (int d : DIMENSIONS) {
      for (int trial = 0; trial < 10; trial++) {
        LpBall ball = LpBall.of(p, 2);
        double[] g = random.gaussian(d);
        double[] v = ball.minimizeLinear(g);
        double best = RandomVectors.dot(g, v);
        double slack = 1e-12 * ball.radius() * ball.norm().dual().valueOf(g);
        for (int sample = 0; sample < 1000; sample++) {
          double[] u = random.onSphere(ball.norm(), d, ball.radius());
          assertTrue(RandomVectors.dot(g, u) >= best - slack, () -> "p=" + p + ", d=" + d);
          // Points near the minimiser probe its neighbourhood, where random points rarely land.
          double[] nearby = RandomVectors.scaleToNorm(nudged(random, v, 1e-3), ball.norm(), 2);
          assertTrue(RandomVectors.dot(g, nearby) >= best - slack, () -> "p=" + p + ", d=" + d);
        }
      }
    }
  }

  @ParameterizedTest
  @ValueSource(doubles = {1, 1.01, 1.5, 2, 3, 20, INF})
  void zeroGradientGivesTheCentre(double p) {
    double[] out = {7, 7, 7};
    LpBall.of(p, 2).minimizeLinear(new double[] {0, -0.0, 0}, out);
    assertArrayEquals(new double[] {0, 0, 0}, out, 0);
  }

  @Test
  void crossPolytopeTiesPickTheSmallestIndex() {
    LpBall ball = LpBall.of(1, 2);
    assertArrayEquals(new double[] {0, 2, 0, 0}, ball.minimizeLinear(new double[] {1, -3, 3, -3}));
    assertArrayEquals(new double[] {-2, 0, 0}, ball.minimizeLinear(new double[] {5, 5, 5}));
  }

  @Test
  void cubeSetsZeroCoordinatesToZero() {
    LpBall ball = LpBall.of(INF, 1.5);
    double[] v = ball.minimizeLinear(new double[] {2, 0, -1e-300, -0.0, 7});
    assertArrayEquals(new double[] {-1.5, 0, 1.5, 0, -1.5}, v);
    assertEquals(0, Double.doubleToRawLongBits(v[1]), "no negative zero");
  }

  @Test
  void smoothBallsSplitTiedMaximaEvenlyNearPEqualsOne() {
    // p close to 1: only the maximal coordinates survive, and they share the radius equally.
    double p = 1 + 1e-6;
    double[] v = LpBall.of(p, 1).minimizeLinear(new double[] {-4, 4, 1});
    double share = Math.pow(2, -1 / p);
    assertArrayEquals(new double[] {share, -share, 0}, v, 1e-15);
  }

  @ParameterizedTest
  @ValueSource(doubles = {1, 1 + 1e-9, 1.01, 1.5, 2, 3, 20, 1e6, INF})
  void extremeMagnitudesGiveFiniteOptimalPoints(double p) {
    RandomVectors random = RandomVectors.seeded(23);
    LpBall ball = LpBall.of(p, 2);
    for (double scale : new double[] {1e300, 1e-300, Double.MAX_VALUE, Double.MIN_VALUE}) {
      double[] base = random.gaussian(6);
      double[] g = RandomVectors.scaled(base, scale);
      double[] v = ball.minimizeLinear(g);
      for (double value : v) {
        assertTrue(Double.isFinite(value), () -> "p=" + p + ", scale=" + scale);
      }
      if (scale >= Double.MIN_NORMAL) {
        assertHolderEquality(ball, g, v, 1e-12);
        // The minimiser is scale-invariant in g.
        assertArrayEquals(ball.minimizeLinear(base), v, 1e-12);
      } else {
        assertEquals(2, ball.norm().valueOf(v), 1e-12);
      }
    }
    double[] mixed = {1e300, -1e-300, 3e299, 0, -1e-300};
    double[] v = ball.minimizeLinear(mixed);
    assertHolderEquality(ball, mixed, v, 1e-12);
  }

  @Test
  void mayWriteIntoTheGradientArray() {
    RandomVectors random = RandomVectors.seeded(24);
    for (double p : new double[] {1, 1.5, 3, INF}) {
      LpBall ball = LpBall.of(p, 1);
      double[] g = random.gaussian(5);
      double[] expected = ball.minimizeLinear(g);
      ball.minimizeLinear(g, g);
      assertArrayEquals(expected, g, 0);
    }
  }

  @Test
  void rejectsBadArguments() {
    LpBall ball = LpBall.of(2, 1);
    IllegalArgumentException length =
        assertThrows(
            IllegalArgumentException.class,
            () -> ball.minimizeLinear(new double[2], new double[3]));
    assertEquals("out.length must equal g.length 2, got 3", length.getMessage());
    IllegalArgumentException nan =
        assertThrows(
            IllegalArgumentException.class,
            () -> ball.minimizeLinear(new double[] {1, Double.NaN}));
    assertEquals("g must have finite entries, max |entry| is NaN", nan.getMessage());
    assertThrows(
        IllegalArgumentException.class, () -> ball.minimizeLinear(new double[] {1, -INF}));
    IllegalArgumentException radius =
        assertThrows(IllegalArgumentException.class, () -> LpBall.of(2, 0));
    assertEquals("radius must be finite and > 0, got 0.0", radius.getMessage());
    assertThrows(IllegalArgumentException.class, () -> LpBall.of(0.9, 1));
  }

  /** &lt;g, v&gt; = -r ||g||_q and ||v||_p = r. */
  private static void assertHolderEquality(LpBall ball, double[] g, double[] v, double relative) {
    double dualNorm = ball.norm().dual().valueOf(g);
    // Compare on g / max|g_i| so that products of huge entries do not overflow.
    double max = Vectors.maxAbs(g);
    double value = RandomVectors.dot(RandomVectors.scaled(g, 1 / max), v);
    double expected = -ball.radius() * (dualNorm / max);
    assertEquals(expected, value, relative * Math.abs(expected), () -> "p=" + ball.exponent());
    assertEquals(ball.radius(), ball.norm().valueOf(v), relative * ball.radius());
  }

  private static double[] nudged(RandomVectors random, double[] v, double size) {
    double[] noise = random.gaussian(v.length);
    double[] out = new double[v.length];
    for (int i = 0; i < v.length; i++) {
      out[i] = v[i] + size * noise[i];
    }
    return out;
  }
}
