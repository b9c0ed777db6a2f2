package org.dpstream.core.geometry;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link LpBall#project}: feasibility, brute-force optimality, KKT conditions, extremes. */
class ProjectionTest {

  private static final double INF = Double.POSITIVE_INFINITY;

  @ParameterizedTest
  @ValueSource(doubles = {1, 1.01, 1.5, 2, 3, 20, INF})
  void insidePointsAreCopiedUnchanged(double p) {
    RandomVectors random = RandomVectors.seeded(31);
    LpBall ball = LpBall.of(p, 2);
    for (int trial = 0; trial < 50; trial++) {
      double[] x = random.inBall(ball.norm(), 6, 1.9);
      assertArrayEquals(x, ball.project(x), 0);
    }
  }

  /**
   * Variational inequality &lt;x - P, u - P&gt; &lt;= 0 for every feasible u (which characterises the
   * projection P), and hence ||x - u||_2 &gt;= ||x - P||_2, against many sampled feasible points.
   */
  @ParameterizedTest
  @ValueSource(doubles = {1, 1.01, 1.5, 2, 3, 20, INF})
  void noSampledFeasiblePointIsCloser(double p) {
    RandomVectors random = RandomVectors.seeded(32);
    for (int d : new int[] {1, 2, 5, 12}) {
      for (int trial = 0; trial < 8; trial++) {
        LpBall ball = LpBall.of(p, 0.5 + random.uniform());
        double[] x = RandomVectors.scaled(random.gaussian(d), 1 + 4 * random.uniform());
        double[] projection = ball.project(x);
        assertTrue(ball.contains(projection));
        double[] residual = RandomVectors.difference(x, projection);
        double distance = LpNorm.L2.valueOf(residual);
        double slack = 1e-10 * (1 + LpNorm.L2.valueOf(x));
        for (int sample = 0; sample < 500; sample++) {
          for (double[] u : feasibleProbes(random, ball, projection)) {
            double[] step = RandomVectors.difference(u, projection);
            assertTrue(RandomVectors.dot(residual, step) <= slack, () -> "p=" + p + ", d=" + d);
            assertTrue(
                LpNorm.L2.valueOf(RandomVectors.difference(x, u)) >= distance - slack,
                () -> "p=" + p + ", d=" + d);
          }
        }
      }
    }
  }

  @ParameterizedTest
  @ValueSource(doubles = {1, 1.01, 1.5, 2, 3, 20, INF})
  void outsidePointsLandOnTheSphere(double p) {
    RandomVectors random = RandomVectors.seeded(33);
    LpBall ball = LpBall.of(p, 1.5);
    for (int trial = 0; trial < 50; trial++) {
      double[] x = random.onSphere(ball.norm(), 8, 1.5 * (1.01 + 5 * random.uniform()));
      double[] projection = ball.project(x);
      double norm = ball.norm().valueOf(projection);
      assertTrue(norm <= 1.5 && norm >= 1.5 * (1 - 1e-12), () -> "p=" + p + ": " + norm);
    }
  }

  /** KKT for p = 1: P = soft-threshold(x, theta) with theta &gt; 0 and ||P||_1 = r. */
  @Test
  void crossPolytopeProjectionSatisfiesKkt() {
    RandomVectors random = RandomVectors.seeded(34);
    LpBall ball = LpBall.of(1, 1);
    for (int trial = 0; trial < 200; trial++) {
      double[] x = RandomVectors.scaled(random.gaussian(1 + random.index(15)), 3);
      if (ball.contains(x)) {
        continue;
      }
      double[] projection = ball.project(x);
      double threshold = Double.NaN;
      for (int i = 0; i < x.length; i++) {
        if (projection[i] != 0) {
          assertEquals(Math.signum(x[i]), Math.signum(projection[i]));
          threshold = Math.abs(x[i]) - Math.abs(projection[i]);
        }
      }
      assertTrue(threshold > 0);
      for (int i = 0; i < x.length; i++) {
        if (projection[i] != 0) {
          assertEquals(threshold, Math.abs(x[i]) - Math.abs(projection[i]), 1e-12);
        } else {
          assertTrue(Math.abs(x[i]) <= threshold + 1e-12);
        }
      }
      assertEquals(1, LpNorm.L1.valueOf(projection), 1e-12);
    }
  }

  /**
   * KKT for 1 &lt; p &lt; infinity: x_i - P_i = lambda sign(P_i) |P_i|^(p-1) with one multiplier
   * lambda &gt; 0 for all non-zero coordinates.
   */
  @ParameterizedTest
  @ValueSource(doubles = {1.5, 3, 20})
  void smoothBallProjectionHasOneMultiplier(double p) {
    RandomVectors random = RandomVectors.seeded(35);
    LpBall ball = LpBall.of(p, 1);
    for (int trial = 0; trial < 50; trial++) {
      double[] x = RandomVectors.scaled(random.gaussian(6), 4);
      double[] projection = ball.project(x);
      int largest = 0;
      for (int i = 1; i < x.length; i++) {
        largest = Math.abs(projection[i]) > Math.abs(projection[largest]) ? i : largest;
      }
      double lambda = multiplier(x, projection, largest, p);
      assertTrue(lambda > 0);
      for (int i = 0; i < x.length; i++) {
        // lambda_i is ill-conditioned for tiny coordinates (|P_i|^(p-1) underflows) and for
        // barely shrunk ones (|x_i| - |P_i| cancels); those carry no information at this precision.
        double magnitude = Math.abs(projection[i]);
        if (magnitude > 1e-3 * Math.abs(projection[largest])
            && Math.abs(x[i]) - magnitude > 1e-3 * Math.abs(x[i])) {
          assertEquals(lambda, multiplier(x, projection, i, p), 1e-8 * lambda, "p=" + p);
        }
      }
    }
  }

  @Test
  void closedFormExamples() {
    assertArrayEquals(new double[] {1, 0}, LpBall.of(1, 1).project(new double[] {3, 1}), 1e-15);
    assertArrayEquals(
        new double[] {0.5, -0.5, 0}, LpBall.of(1, 1).project(new double[] {2, -2, 1}), 1e-15);
    assertArrayEquals(new double[] {0.6, 0.8}, LpBall.of(2, 1).project(new double[] {3, 4}), 1e-15);
    assertArrayEquals(
        new double[] {1, -1, 0.25}, LpBall.of(INF, 1).project(new double[] {3, -4, 0.25}), 0);
  }

  @ParameterizedTest
  @ValueSource(doubles = {1, 1.01, 1.5, 2, 3, 20, INF})
  void extremeMagnitudesStayFiniteAndFeasible(double p) {
    RandomVectors random = RandomVectors.seeded(36);
    double[][] cases = {
      {1e300, 1e300, -1e300, 1e299}, {Double.MAX_VALUE, -Double.MAX_VALUE, 1}, {1e-300, -3e-300, 2e-300}
    };
    double[] radii = {1, 1e-10, 1e-305};
    for (double[] x : cases) {
      for (double radius : radii) {
        LpBall ball = LpBall.of(p, radius);
        double[] projection = ball.project(x);
        for (double value : projection) {
          assertTrue(Double.isFinite(value));
        }
        assertTrue(ball.contains(projection), () -> "p=" + p + ", r=" + radius);
      }
    }
    // Scale equivariance P_{sB}(s x) = s P_B(x) where everything stays in range.
    double[] x = random.gaussian(5);
    double[] unit = LpBall.of(p, 1).project(RandomVectors.scaled(x, 3));
    double[] huge = LpBall.of(p, 1e290).project(RandomVectors.scaled(x, 3e290));
    assertArrayEquals(unit, RandomVectors.scaled(huge, 1e-290), 1e-12);
  }

  @Test
  void rejectsAliasingAndNonFiniteInput() {
    LpBall ball = LpBall.of(1, 1);
    double[] x = {3, 4};
    IllegalArgumentException alias =
        assertThrows(IllegalArgumentException.class, () -> ball.project(x, x));
    assertEquals("out must not be the same array as x", alias.getMessage());
    assertThrows(IllegalArgumentException.class, () -> ball.project(new double[] {Double.NaN}));
  }

  /** Random points of the sphere and of the ball, and points near the projection. */
  private static double[][] feasibleProbes(RandomVectors random, LpBall ball, double[] projection) {
    int d = projection.length;
    double[] near = projection.clone();
    near[random.index(d)] += 1e-4 * random.gaussian(1)[0];
    NormClipper.of(ball.norm(), ball.radius()).clipInPlace(near);
    return new double[][] {
      random.onSphere(ball.norm(), d, ball.radius()),
      random.inBall(ball.norm(), d, ball.radius()),
      near
    };
  }

  private static double multiplier(double[] x, double[] projection, int i, double p) {
    double magnitude = Math.abs(projection[i]);
    return (Math.abs(x[i]) - magnitude) / Math.pow(magnitude, p - 1);
  }
}
