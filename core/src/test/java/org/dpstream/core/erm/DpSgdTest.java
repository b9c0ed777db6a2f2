package org.dpstream.core.erm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpstream.core.erm.privacy.RdpConversion;
import org.dpstream.core.erm.privacy.SubsampledGaussianRdp;
import org.dpstream.core.loss.GlmLoss;
import org.dpstream.core.privacy.accounting.PrivacyBudget;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.testing.TestKeys;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestReporter;

class DpSgdTest {

  private static final KeyedNoiseSource SOURCE = new KeyedNoiseSource(TestKeys.seeded(13));
  private static final double[] BOUNDS = {1, 2, 0.5, 1};

  @Test
  void noiseFreeFullBatchRunConvergesToTheRidgeSolution(TestReporter reporter) {
    ErmDataset data = ErmFixtures.regression(12L, 200, BOUNDS, new double[] {1, -1, 2, 0.5});
    CompositeObjective objective = CompositeObjective.of(GlmLoss.squared(), Regularizer.l2(0.1));
    // q = 1 and no clip: proximal gradient descent with step 1/beta.
    ErmRun run = new DpSgd().train(ErmProblem.nonPrivate(data, objective, 3000,
        ErmOptions.defaults().withBatchRate(1.0)), SOURCE, "gd", PassListener.NONE);
    double error = ErmFixtures.maxAbsDifference(ErmFixtures.ridgeSolution(data, 0.1), run.finalWeights());
    reporter.publishEntry("dpsgd q=1 ridge", "max |w - w*| = " + error);
    assertTrue(error < 1e-8, "error " + error);
  }

  @Test
  void noiseFreeMinibatchRunApproachesTheOptimum(TestReporter reporter) {
    ErmDataset data = ErmFixtures.regression(13L, 1000, BOUNDS, new double[] {1, -1, 2, 0.5});
    CompositeObjective objective = CompositeObjective.of(GlmLoss.squared(), Regularizer.l1(0.01));
    double optimum = NonPrivateSolver.solve(data, objective).value();
    ErmRun run = new DpSgd().train(ErmProblem.nonPrivate(data, objective, 30,
        ErmOptions.defaults().withStepScale(0.5)), SOURCE, "sgd", PassListener.NONE);
    double relative = (objective.value(run.finalWeights(), data) - optimum) / optimum;
    reporter.publishEntry("dpsgd q=10/n lasso", "relative error " + relative);
    assertTrue(relative < 0.05, "relative error " + relative);
    assertEquals(30 * 100, run.updates());
  }

  @Test
  void privateRunUsesTheCalibratedAccountant() {
    ErmDataset data = ErmFixtures.regression(14L, 1000, BOUNDS, new double[] {1, -1, 2, 0.5});
    CompositeObjective objective = CompositeObjective.of(GlmLoss.squared(), Regularizer.none());
    PrivacyBudget budget = new PrivacyBudget(1, 1e-6);
    ErmRun run = new DpSgd().train(ErmProblem.of(data, objective, budget, 3,
        ErmOptions.defaults().withClipNorm(1.0)), SOURCE, "p", PassListener.NONE);
    assertTrue(run.privacySpent().orElseThrow().isWithin(budget));
    double z = SubsampledGaussianRdp.calibrate(0.01, 300, budget, RdpConversion.CLASSIC).noiseMultiplier();
    assertTrue(run.describe().contains(String.format(java.util.Locale.ROOT, "z=%.6g", z)), run.describe());
    assertThrows(IllegalArgumentException.class, () -> new DpSgd().train(
        ErmProblem.of(data, objective, budget, 1, ErmOptions.defaults()), SOURCE, "p", PassListener.NONE));
  }
}
