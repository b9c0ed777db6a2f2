package org.dpstream.core.erm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpstream.core.loss.GlmLoss;
import org.junit.jupiter.api.Test;

class NonPrivateSolverTest {

  @Test
  void ridgeMatchesTheClosedForm() {
    ErmDataset data = ErmFixtures.regression(1L, 300, new double[] {1, 2, 0.5, 1, 3}, new double[] {1, -1, 2, 0, 0.5});
    CompositeObjective objective = CompositeObjective.of(GlmLoss.squared(), Regularizer.l2(0.1));
    NonPrivateSolver.Solution solution = NonPrivateSolver.solve(data, objective);
    assertTrue(solution.converged());
    assertTrue(ErmFixtures.maxAbsDifference(ErmFixtures.ridgeSolution(data, 0.1), solution.weights()) < 1e-10);
  }

  @Test
  void lassoOnAnOrthogonalDesignIsSoftThresholding() {
    double[] scales = {1, 2, 0.5, 1.5};
    ErmDataset data = ErmFixtures.orthogonalDesign(scales);
    double lambda = 0.3;
    CompositeObjective objective = CompositeObjective.of(GlmLoss.squared(), Regularizer.l1(lambda));
    double[] w = NonPrivateSolver.solve(data, objective).weights();
    for (int j = 0; j < scales.length; j++) {
      double correlation = 0;
      for (int i = 0; i < data.size(); i++) {
        correlation += data.feature(i, j) * data.label(i) / data.size();
      }
      double expected = Math.signum(correlation) * Math.max(Math.abs(correlation) - lambda, 0) / (scales[j] * scales[j]);
      assertEquals(expected, w[j], 1e-12, "coordinate " + j);
    }
  }
}
