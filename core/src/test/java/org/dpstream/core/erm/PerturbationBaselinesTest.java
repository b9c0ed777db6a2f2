package org.dpstream.core.erm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Locale;
import org.dpstream.core.erm.privacy.GaussianCompositionCalibration;
import org.dpstream.core.erm.privacy.ZcdpRule;
import org.dpstream.core.loss.GlmLoss;
import org.dpstream.core.privacy.accounting.PrivacyBudget;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.testing.TestKeys;
import org.junit.jupiter.api.Test;

class PerturbationBaselinesTest {

  private static final KeyedNoiseSource SOURCE = new KeyedNoiseSource(TestKeys.seeded(41));
  private static final double[] BOUNDS = {1, 2, 0.5};
  private static final CompositeObjective LOGISTIC_L2 = CompositeObjective.of(GlmLoss.logistic(), Regularizer.l2(0.05));

  private static ErmDataset data() {
    return ErmFixtures.classification(8L, 200, BOUNDS, new double[] {1, -0.5, 2});
  }

  @Test
  void objectivePerturbationCalibrationIsThePapersStepOneAndTwo() {
    // n = 100, Lambda = 0.01, c = 1/4: c/(n Lambda) = 0.25, epsilon' = 1 - ln(1 + 0.5 + 0.0625) > 0, Delta = 0.
    ObjectivePerturbation.Calibration loose = ObjectivePerturbation.calibrate(1, 100, 0.01);
    assertEquals(0.5537128973715805, loose.epsilonPrime(), 1e-12);
    assertTrue(loose.epsilonPrime() <= 1 - Math.log(1.5625));
    assertEquals(0, loose.extraRegularization());
    // epsilon = 0.1: epsilon' would be negative, so Delta = c/(n (e^(epsilon/4) - 1)) - Lambda, epsilon' = epsilon/2.
    ObjectivePerturbation.Calibration tight = ObjectivePerturbation.calibrate(0.1, 100, 0.01);
    assertEquals(0.05, tight.epsilonPrime(), 1e-12);
    assertTrue(tight.epsilonPrime() <= 0.05);
    assertEquals(0.08875520827908068, tight.extraRegularization(), 1e-12);
    assertTrue(tight.extraRegularization() >= 0.08875520827908068);
  }

  @Test
  void withoutNoiseBothBaselinesReleaseTheRegularisedOptimum() {
    ErmDataset data = data();
    double[] optimum = NonPrivateSolver.solve(data, LOGISTIC_L2).weights();
    for (ErmAlgorithm baseline : new ErmAlgorithm[] {new OutputPerturbation(), new ObjectivePerturbation()}) {
      ErmRun run = baseline.train(ErmProblem.nonPrivate(data, LOGISTIC_L2, 1, ErmOptions.defaults()), SOURCE, "np",
          PassListener.NONE);
      assertArrayEquals(optimum, run.finalWeights(), 1e-9, baseline.name());
      assertTrue(run.privacySpent().isEmpty());
    }
  }

  @Test
  void outputPerturbationAddsGaussianNoiseOfTheMinimisersSensitivity() {
    ErmDataset data = data();
    PrivacyBudget budget = new PrivacyBudget(1, 1e-5);
    double r = Math.sqrt(1 + 4 + 0.25);
    double sensitivity = 2 * r / (200 * 0.05);
    double sigma = GaussianCompositionCalibration.of(budget, 1, ZcdpRule.TIGHT).sigmaFor(sensitivity);
    double[] optimum = NonPrivateSolver.solve(data, LOGISTIC_L2, 1e-12, 100_000).weights();
    ErmOptions options = ErmOptions.defaults().withZcdpRule(ZcdpRule.TIGHT);
    // 400 releases x 3 coordinates of N(0, sigma^2): the sample variance is within 20% of sigma^2 with
    // probability > 1 - 1e-6 (chi-square with 1200 degrees of freedom, sd of the ratio 0.041).
    double sum = 0;
    int count = 0;
    for (int k = 0; k < 400; k++) {
      ErmRun run = new OutputPerturbation().train(ErmProblem.of(data, LOGISTIC_L2, budget, 1, options), SOURCE,
          "out-" + k, PassListener.NONE);
      double[] w = run.finalWeights();
      for (int j = 0; j < w.length; j++) {
        sum += (w[j] - optimum[j]) * (w[j] - optimum[j]);
        count++;
      }
      if (k == 0) {
        assertTrue(run.describe().contains(String.format(Locale.ROOT, "sigma %.6g", sigma)), run.describe());
        assertTrue(run.privacySpent().orElseThrow().isWithin(budget));
      }
    }
    double ratio = sum / count / (sigma * sigma);
    assertTrue(ratio > 0.8 && ratio < 1.2, "variance ratio " + ratio);
  }

  @Test
  void objectivePerturbationsNoiseNormFollowsItsGammaLaw() {
    // ||b|| ~ Gamma(d, 2/epsilon'): mean 2 d / epsilon'. n = 200, R^2 = 5.25, Lambda = lambda / R^2.
    ErmDataset data = data();
    PrivacyBudget budget = new PrivacyBudget(2, 1e-5);
    ObjectivePerturbation.Calibration calibration = ObjectivePerturbation.calibrate(2, 200, 0.05 / 5.25);
    double mean = 0;
    int runs = 300;
    for (int k = 0; k < runs; k++) {
      String description = new ObjectivePerturbation().train(ErmProblem.of(data, LOGISTIC_L2, budget, 1,
          ErmOptions.defaults()), SOURCE, "obj-" + k, PassListener.NONE).describe();
      String marker = "noise norm ";
      mean += Double.parseDouble(description.substring(description.indexOf(marker) + marker.length())) / runs;
    }
    double expected = 2 * 3 / calibration.epsilonPrime();
    // sd of the mean: sqrt(d) (2/epsilon') / sqrt(300) = expected / sqrt(3 * 300); 5 sd is 0.17 of expected.
    assertEquals(expected, mean, 0.17 * expected);
  }

  @Test
  void theLinearTermSolverReachesStationarity() {
    ErmDataset data = data();
    double[] c = {0.3, -0.2, 0.1};
    double[] w = NonPrivateSolver.solve(data, LOGISTIC_L2, c, 1e-13, 100_000).weights();
    for (int j = 0; j < 3; j++) {
      double gradient = 0.05 * w[j] + c[j];
      for (int i = 0; i < data.size(); i++) {
        gradient += LOGISTIC_L2.residual(data.margin(i, w), data.label(i)) * data.feature(i, j) / data.size();
      }
      assertEquals(0, gradient, 1e-9);
    }
  }

  @Test
  void baselinesRefuseWhatTheirProofsDoNotCover() {
    ErmDataset data = data();
    PrivacyBudget budget = new PrivacyBudget(1, 1e-5);
    CompositeObjective l1 = CompositeObjective.of(GlmLoss.logistic(), Regularizer.l1(0.1));
    assertThrows(IllegalArgumentException.class, () -> new OutputPerturbation().train(
        ErmProblem.of(data, l1, budget, 1, ErmOptions.defaults()), SOURCE, "x", PassListener.NONE));
    CompositeObjective none = CompositeObjective.of(GlmLoss.logistic(), Regularizer.none());
    assertThrows(IllegalArgumentException.class, () -> new OutputPerturbation().train(
        ErmProblem.of(data, none, budget, 1, ErmOptions.defaults()), SOURCE, "x", PassListener.NONE));
    ErmDataset regression = ErmFixtures.regression(9L, 50, BOUNDS, new double[] {1, 1, 1});
    CompositeObjective squared = CompositeObjective.of(GlmLoss.squared(), Regularizer.l2(0.1));
    assertThrows(IllegalArgumentException.class, () -> new ObjectivePerturbation().train(
        ErmProblem.of(regression, squared, budget, 1, ErmOptions.defaults()), SOURCE, "x", PassListener.NONE));
  }
}
