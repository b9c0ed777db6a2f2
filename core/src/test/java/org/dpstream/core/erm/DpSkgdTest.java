package org.dpstream.core.erm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpstream.core.loss.GlmLoss;
import org.dpstream.core.privacy.accounting.PrivacyBudget;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.testing.TestKeys;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestReporter;

class DpSkgdTest {

  private static final KeyedNoiseSource SOURCE = new KeyedNoiseSource(TestKeys.seeded(12));
  private static final double[] BOUNDS = {1, 2, 0.5, 1, 3, 1};

  @Test
  void noiseFreeRunsConvergeToTheRidgeSolutionForEveryBlockCount(TestReporter reporter) {
    ErmDataset data = ErmFixtures.regression(6L, 200, BOUNDS, new double[] {1, -1, 2, 0, 0.5, -0.5});
    CompositeObjective objective = CompositeObjective.of(GlmLoss.squared(), Regularizer.l2(0.1));
    double[] exact = ErmFixtures.ridgeSolution(data, 0.1);
    for (String name : new String[] {"dpskgd-uniform", "dpskgd-importance"}) {
      for (int blocks : new int[] {0, 3, 1}) {
        ErmProblem problem = ErmProblem.nonPrivate(data, objective, 1500,
            ErmOptions.defaults().withBlockCount(blocks));
        ErmRun run = ErmAlgorithms.byName(name).train(problem, SOURCE, "ridge", PassListener.NONE);
        double error = ErmFixtures.maxAbsDifference(exact, run.finalWeights());
        reporter.publishEntry(name + " b=" + blocks, "max |w - w*| = " + error);
        assertTrue(error < 1e-8, name + " b=" + blocks + ": " + error);
      }
    }
  }

  @Test
  void noiseFreeLogisticRunReachesTheReferenceOptimum(TestReporter reporter) {
    ErmDataset data = ErmFixtures.classification(7L, 300, BOUNDS, new double[] {1, -1, 2, 0, 0.5, -0.5});
    CompositeObjective objective = CompositeObjective.of(GlmLoss.logistic(), Regularizer.l2(0.05));
    NonPrivateSolver.Solution reference = NonPrivateSolver.solve(data, objective);
    ErmRun run = new DpSkgd(DpSkgd.Sampling.IMPORTANCE).train(
        ErmProblem.nonPrivate(data, objective, 600, ErmOptions.defaults().withBlockCount(2)), SOURCE, "logit",
        PassListener.NONE);
    double gap = objective.value(run.finalWeights(), data) - reference.value();
    reporter.publishEntry("logistic gap", Double.toString(gap));
    assertTrue(gap < 1e-10 && gap > -1e-12, "gap " + gap);
  }

  @Test
  void importanceAndUniformCoincideWhenAllBoundsAreEqual() {
    double[] equal = {1, 1, 1, 1, 1, 1};
    ErmDataset data = ErmFixtures.classification(8L, 200, equal, new double[] {1, -1, 2, 0, 0.5, -0.5});
    CompositeObjective objective = CompositeObjective.of(GlmLoss.logistic(), Regularizer.l2(0.01));
    ErmProblem problem = ErmProblem.of(data, objective, new PrivacyBudget(1, 1e-6), 4,
        ErmOptions.defaults().withBlockCount(3));
    ErmRun importance = new DpSkgd(DpSkgd.Sampling.IMPORTANCE).train(problem, SOURCE, "r", PassListener.NONE);
    ErmRun uniform = new DpSkgd(DpSkgd.Sampling.UNIFORM).train(problem, SOURCE, "r", PassListener.NONE);
    assertArrayEquals(uniform.finalWeights(), importance.finalWeights(), 0);
  }

  @Test
  void singleCoordinateBlocksHaveDpCdsNoiseAndSteps() {
    // b = d, uniform, logistic (R = 1, so L_j = b_j) vs DP-CD with C_j = b_j: with all b_j = 1 the uniform rule
    // with C = sqrt(d) gives C_j = 1. Same Theorem 1 / Theorem 4.1 sigma_j = (2/n) sqrt(3 T K ln(1/delta)) / eps.
    double[] equal = {1, 1, 1, 1};
    ErmDataset data = ErmFixtures.classification(9L, 1000, equal, new double[] {1, -1, 2, 0});
    CompositeObjective objective = CompositeObjective.of(GlmLoss.logistic(), Regularizer.none());
    PrivacyBudget budget = new PrivacyBudget(1, 1e-5);
    ErmOptions options = ErmOptions.defaults().withClipNorm(2.0);
    ErmRun skgd = new DpSkgd(DpSkgd.Sampling.UNIFORM).train(ErmProblem.of(data, objective, budget, 25, options),
        SOURCE, "x", PassListener.NONE);
    ErmRun cd = new DpCd(DpCd.ClippingRule.UNIFORM).train(ErmProblem.of(data, objective, budget, 25, options),
        SOURCE, "x", PassListener.NONE);
    // T K = 100 updates: a hand-worked sigma = 0.1175394 (n = 1000, eps = 1, delta = 1e-5).
    assertEquals(100, skgd.updates());
    assertEquals(cd.updates(), skgd.updates());
    assertTrue(skgd.describe().contains("sigma_j in [0.1175"), skgd.describe());
    assertTrue(cd.describe().contains("sigma_j in [0.1175"), cd.describe());
  }

  @Test
  void fullBlockIsPreconditionedGradientDescent() {
    // b = 1: theta <- theta - M^-1 grad f(theta) with M_j = b_j sum_l b_l (squared loss), checked against an
    // explicit gradient step on a tiny problem after one noise-free update.
    ErmDataset data = ErmDataset.of(new double[][] {{1, 0.5}, {-0.5, 1}, {0.25, -1}},
        new double[] {1, 2, -1}, FeatureBounds.of(1, 1));
    CompositeObjective objective = CompositeObjective.of(GlmLoss.squared(), Regularizer.none());
    ErmRun run = new DpSkgd(DpSkgd.Sampling.UNIFORM).train(
        ErmProblem.nonPrivate(data, objective, 1, ErmOptions.defaults().withBlockCount(1)), SOURCE, "gd",
        PassListener.NONE);
    // At w = 0: grad_j f = (1/3) sum_i x_ij (0 - y_i): g_0 = -(1 - 1 - 0.25)/3 = 0.25/3, g_1 = -(0.5 + 2 + 1)/3.
    double[] expected = {-(0.25 / 3) / 2, (3.5 / 3) / 2};
    assertEquals(1, run.updates());
    assertArrayEquals(expected, run.finalWeights(), 1e-15);
  }

  @Test
  void squaredLossNeedsAResidualClipWhenPrivate() {
    ErmDataset data = ErmFixtures.regression(10L, 50, BOUNDS, new double[6]);
    CompositeObjective objective = CompositeObjective.of(GlmLoss.squared(), Regularizer.none());
    assertThrows(IllegalArgumentException.class, () -> new DpSkgd(DpSkgd.Sampling.UNIFORM).train(
        ErmProblem.of(data, objective, new PrivacyBudget(1, 1e-5), 1, ErmOptions.defaults()), SOURCE, "x",
        PassListener.NONE));
    ErmRun run = new DpSkgd(DpSkgd.Sampling.UNIFORM).train(ErmProblem.of(data, objective,
        new PrivacyBudget(1, 1e-5), 1, ErmOptions.defaults().withResidualClip(2)), SOURCE, "x", PassListener.NONE);
    assertTrue(run.privacySpent().isPresent());
  }

  @Test
  void theoremSchedules() {
    PrivacyBudget budget = new PrivacyBudget(1, 1e-5);
    // Convex: K = n eps R / (Sigma sqrt(ln 1/delta)) = 1000 * 1 * 2 / (1 * 3.3931) = 589.4 -> 590, T = 1.
    LoopSchedule convex = LoopSchedule.convexTheorem(1000, budget, 2.0, 1.0);
    assertEquals(new LoopSchedule(1, 590, true), convex);
    // Strongly convex, kappa = 4.5: K = 2(2 kappa + 1) = 20 (corrected) vs 2(1 + kappa) = 11 (paper);
    // T = ceil(log2(gap n^2 eps^2 / ((1 + kappa) Sigma^2 ln(1/delta)))) = ceil(log2(1e6 / (5.5 * 11.5129)))
    //   = ceil(13.95) = 14 for gap = 1, Sigma^2 = 1, n = 1000.
    assertEquals(new LoopSchedule(14, 20, true), LoopSchedule.stronglyConvexTheorem(1000, budget, 4.5, 1.0, 1.0,
        LoopSchedule.InnerLoopLength.CORRECTED));
    assertEquals(new LoopSchedule(14, 11, true), LoopSchedule.stronglyConvexTheorem(1000, budget, 4.5, 1.0, 1.0,
        LoopSchedule.InnerLoopLength.PAPER));
  }

  @Test
  void stronglyConvexTheoremRunUsesItsSchedule() {
    ErmDataset data = ErmFixtures.classification(11L, 400, BOUNDS, new double[] {1, -1, 2, 0, 0.5, -0.5});
    CompositeObjective objective = CompositeObjective.of(GlmLoss.logistic(), Regularizer.l2(0.5));
    ErmOptions options = ErmOptions.defaults().withLoopRule(
        new LoopRule.StronglyConvexTheorem(1.0, LoopSchedule.InnerLoopLength.CORRECTED));
    ErmRun run = new DpSkgd(DpSkgd.Sampling.IMPORTANCE).train(
        ErmProblem.of(data, objective, new PrivacyBudget(1, 1e-5), 1, options), SOURCE, "theory", PassListener.NONE);
    assertTrue(run.describe().contains("averaged"), run.describe());
    assertTrue(run.privacySpent().orElseThrow().epsilon() <= 1);
  }

  /**
   * With single-coordinate blocks and a clip norm, DP-SkGD's per-block sensitivity bounds are DP-CD's
   * smooth thresholds C_j = sqrt(M_j / tr M) C wherever those are below the declared worst case R b_j:
   * the b = d special case is DP-CD with smooth clipping. Without a clip norm they are R b_j.
   */
  @Test
  void singleCoordinateBlocksWithAClipNormUseDpCdSmoothThresholds() {
    FeatureBounds bounds = FeatureBounds.of(BOUNDS);
    double[] smoothness = new double[BOUNDS.length];
    for (int j = 0; j < BOUNDS.length; j++) {
      smoothness[j] = BOUNDS[j] * BOUNDS[j] / 4; // logistic: M_j = b_j^2 / 4
    }
    BlockPartition singles = BlockPartition.contiguous(BOUNDS.length, BOUNDS.length);
    double clipNorm = 0.5;
    double[] smooth = DpCd.ClippingRule.SMOOTH.thresholds(clipNorm, smoothness);
    double[] clipped = DpSkgd.blockSensitivityBounds(singles, bounds, 1.0, smooth);
    for (int j = 0; j < BOUNDS.length; j++) {
      double expected = Math.min(BOUNDS[j], smooth[j]);
      assertEquals(expected, clipped[j], expected * 1e-9, "coordinate " + j);
      assertTrue(clipped[j] >= expected);
    }
    double[] unclipped = new double[BOUNDS.length];
    java.util.Arrays.fill(unclipped, Double.POSITIVE_INFINITY);
    double[] lipschitz = DpSkgd.blockSensitivityBounds(singles, bounds, 1.0, unclipped);
    for (int j = 0; j < BOUNDS.length; j++) {
      assertEquals(BOUNDS[j], lipschitz[j], BOUNDS[j] * 1e-9);
    }
  }
}
