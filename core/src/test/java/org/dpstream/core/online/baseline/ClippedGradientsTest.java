package org.dpstream.core.online.baseline;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpstream.core.geometry.LpBall;
import org.dpstream.core.geometry.LpNorm;
import org.dpstream.core.loss.DataBounds;
import org.dpstream.core.loss.GlmLoss;
import org.dpstream.core.privacy.accounting.PrivacyBudget;
import org.junit.jupiter.api.Test;

class ClippedGradientsTest {

  /** Squared loss, l_1.5 ball of radius 1, ||x||_3 &lt;= 1, |y| &lt;= 1: L = (1 * 1 + 1) * 1 = 2. */
  private static BatchProblem problem(double[][] features, double[] labels) {
    return new BatchProblem(features, labels, GlmLoss.squared(), LpBall.of(1.5, 1), new PrivacyBudget(1, 1e-5),
        new DataBounds(1, 1));
  }

  @Test
  void gradientsOfSamplesOutsideTheDeclaredBoundsAreClippedToL() {
    BatchProblem problem = problem(new double[][] {{30, -40, 50}}, new double[] {-100});
    double[] gradient = new double[3];
    new ClippedGradients(problem).clippedGradient(new double[] {0.5, 0.1, 0}, 0, gradient);
    assertTrue(LpNorm.of(3).valueOf(gradient) <= 2, "clipped to L = 2 in the dual norm l_3");
  }

  @Test
  void gradientsWithinTheDeclaredBoundsAreUntouched() {
    double[] x = {0.5, -0.5, 0.25};
    double y = 0.3;
    double[] theta = {0.2, 0.1, -0.3};
    double[] gradient = new double[3];
    new ClippedGradients(problem(new double[][] {x}, new double[] {y})).clippedGradient(theta, 0, gradient);
    double[] expected = new double[3];
    GlmLoss.squared().gradient(theta, x, y, expected);
    assertArrayEquals(expected, gradient, 0);
  }
}
