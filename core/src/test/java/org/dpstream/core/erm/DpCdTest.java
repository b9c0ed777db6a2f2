package org.dpstream.core.erm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.dpstream.core.erm.privacy.ZcdpRule;
import org.dpstream.core.loss.GlmLoss;
import org.dpstream.core.privacy.accounting.PrivacyBudget;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.testing.TestKeys;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestReporter;

class DpCdTest {

  private static final KeyedNoiseSource SOURCE = new KeyedNoiseSource(TestKeys.seeded(11));
  private static final double[] BOUNDS = {1, 2, 0.5, 1, 3};

  @Test
  void clippingRulesCoincideWhenAllSmoothnessConstantsAreEqual() {
    double[] equal = {0.7, 0.7, 0.7, 0.7};
    assertArrayEquals(DpCd.ClippingRule.UNIFORM.thresholds(2.0, equal),
        DpCd.ClippingRule.SMOOTH.thresholds(2.0, equal), 1e-15);
    // Worked by hand: C = 2, d = 4: C_j = 1.
    assertEquals(1.0, DpCd.ClippingRule.UNIFORM.thresholds(2.0, equal)[0], 1e-15);
  }

  @Test
  void smoothRuleHasSensitivityTwoCInTheRescaledNorm() {
    // Section 3.5: sum_j (tr M / (d M_j)) (2 C_j)^2 = 4 C^2. M = (4, 1, 1, 2), C = 3: C_j = 3 sqrt(M_j / 8).
    double[] m = {4, 1, 1, 2};
    double[] c = DpCd.ClippingRule.SMOOTH.thresholds(3.0, m);
    assertEquals(3 * Math.sqrt(0.5), c[0], 1e-15);
    double sum = 0;
    for (int j = 0; j < m.length; j++) {
      sum += 8.0 / (4 * m[j]) * 4 * c[j] * c[j];
    }
    assertEquals(36.0, sum, 1e-12);
  }

  @Test
  void noiseFreeRunConvergesToTheRidgeSolution(TestReporter reporter) {
    ErmDataset data = ErmFixtures.regression(2L, 200, BOUNDS, new double[] {1, -1, 2, 0, 0.5});
    CompositeObjective objective = CompositeObjective.of(GlmLoss.squared(), Regularizer.l2(0.1));
    double[] exact = ErmFixtures.ridgeSolution(data, 0.1);
    for (boolean averaging : new boolean[] {false, true}) {
      ErmProblem problem = ErmProblem.nonPrivate(data, objective, 400,
          ErmOptions.defaults().withAveraging(averaging));
      ErmRun run = new DpCd(DpCd.ClippingRule.SMOOTH).train(problem, SOURCE, "ridge-" + averaging, PassListener.NONE);
      double error = ErmFixtures.maxAbsDifference(exact, run.finalWeights());
      reporter.publishEntry("dpcd ridge averaging=" + averaging, "max |w - w*| = " + error);
      assertTrue(error < (averaging ? 1e-3 : 1e-9), "averaging=" + averaging + ": " + error);
      assertTrue(run.privacySpent().isEmpty());
    }
  }

  @Test
  void noiseFreeRunConvergesToTheLassoSolutionOnAnOrthogonalDesign() {
    double[] scales = {1, 2, 0.5, 1.5};
    ErmDataset data = ErmFixtures.orthogonalDesign(scales);
    CompositeObjective objective = CompositeObjective.of(GlmLoss.squared(), Regularizer.l1(0.3));
    NonPrivateSolver.Solution reference = NonPrivateSolver.solve(data, objective);
    // On an orthogonal design with |x_ij| = b_j the public M_j equal the data's, so each coordinate step is
    // exact minimisation: 60 passes are plenty.
    ErmRun run = new DpCd(DpCd.ClippingRule.UNIFORM).train(
        ErmProblem.nonPrivate(data, objective, 60, ErmOptions.defaults()), SOURCE, "lasso", PassListener.NONE);
    assertTrue(ErmFixtures.maxAbsDifference(reference.weights(), run.finalWeights()) < 1e-12);
  }

  @Test
  void privateRunReportsItsBudgetNoiseAndPasses() {
    ErmDataset data = ErmFixtures.regression(3L, 500, BOUNDS, new double[] {1, -1, 2, 0, 0.5});
    CompositeObjective objective = CompositeObjective.of(GlmLoss.squared(), Regularizer.l1(0.01));
    PrivacyBudget budget = new PrivacyBudget(1.0, 1e-6);
    ErmProblem problem = ErmProblem.of(data, objective, budget, 5, ErmOptions.defaults().withClipNorm(1.0));
    List<Integer> passes = new ArrayList<>();
    ErmRun run = new DpCd(DpCd.ClippingRule.SMOOTH).train(problem, SOURCE, "p1", (pass, w) -> passes.add(pass));
    assertEquals(List.of(1, 2, 3, 4, 5), passes);
    assertEquals(6, run.passWeights().size());
    assertEquals(25, run.updates());
    assertTrue(run.privacySpent().orElseThrow().isWithin(budget));
    assertTrue(run.describe().contains("dpcd-smooth") && run.describe().contains("paper-thm1-zcdp"),
        run.describe());
    // Reproducible from (key, runId); another runId gives other noise.
    ErmRun again = new DpCd(DpCd.ClippingRule.SMOOTH).train(problem, SOURCE, "p1", PassListener.NONE);
    assertArrayEquals(run.finalWeights(), again.finalWeights(), 0);
    ErmRun other = new DpCd(DpCd.ClippingRule.SMOOTH).train(problem, SOURCE, "p2", PassListener.NONE);
    assertTrue(ErmFixtures.maxAbsDifference(run.finalWeights(), other.finalWeights()) > 0);
  }

  @Test
  void smoothAndUniformRunsCoincideWhenAllBoundsAreEqual() {
    double[] equalBounds = {1, 1, 1, 1};
    ErmDataset data = ErmFixtures.regression(4L, 300, equalBounds, new double[] {1, -1, 2, 0});
    CompositeObjective objective = CompositeObjective.of(GlmLoss.squared(), Regularizer.l2(0.01));
    ErmProblem problem = ErmProblem.of(data, objective, new PrivacyBudget(1.0, 1e-6), 3,
        ErmOptions.defaults().withClipNorm(0.5));
    double[] smooth = new DpCd(DpCd.ClippingRule.SMOOTH).train(problem, SOURCE, "same", PassListener.NONE)
        .finalWeights();
    double[] uniform = new DpCd(DpCd.ClippingRule.UNIFORM).train(problem, SOURCE, "same", PassListener.NONE)
        .finalWeights();
    assertTrue(ErmFixtures.maxAbsDifference(smooth, uniform) < 1e-12);
  }

  @Test
  void privateRunsNeedAClipNormAndTheClosedFormNeedsEpsilonAtMostOne() {
    ErmDataset data = ErmFixtures.regression(5L, 50, BOUNDS, new double[] {1, 0, 0, 0, 0});
    CompositeObjective objective = CompositeObjective.of(GlmLoss.squared(), Regularizer.none());
    DpCd dpcd = new DpCd(DpCd.ClippingRule.SMOOTH);
    assertThrows(IllegalArgumentException.class, () -> dpcd.train(
        ErmProblem.of(data, objective, new PrivacyBudget(1, 1e-5), 1, ErmOptions.defaults()), SOURCE, "x",
        PassListener.NONE));
    ErmOptions clipped = ErmOptions.defaults().withClipNorm(1);
    assertThrows(IllegalArgumentException.class, () -> dpcd.train(
        ErmProblem.of(data, objective, new PrivacyBudget(4, 1e-5), 1, clipped), SOURCE, "x", PassListener.NONE));
    ErmRun tight = dpcd.train(ErmProblem.of(data, objective, new PrivacyBudget(4, 1e-5), 1,
        clipped.withZcdpRule(ZcdpRule.TIGHT)), SOURCE, "x", PassListener.NONE);
    assertTrue(tight.privacySpent().orElseThrow().epsilon() <= 4);
  }
}
