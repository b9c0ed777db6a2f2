package org.dpstream.core.erm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpstream.core.erm.privacy.RdpConversion;
import org.dpstream.core.erm.privacy.SubsampledGaussianCalibration;
import org.dpstream.core.erm.privacy.SubsampledGaussianRdp;
import org.dpstream.core.erm.privacy.ZcdpRule;
import org.dpstream.core.loss.GlmLoss;
import org.dpstream.core.privacy.accounting.PrivacyBudget;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.testing.TestKeys;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * Each batch algorithm's accounting for data sets that differ in up to k records ({@link
 * ErmProblem#maxContributions}): larger noise than k = 1 by exactly the amount docs/privacy-layer.md proves.
 */
class PersonLevelAccountingTest {

  private static final KeyedNoiseSource SOURCE = new KeyedNoiseSource(TestKeys.seeded(77));
  private static final double[] BOUNDS = {1, 2, 0.5};
  private static final PrivacyBudget BUDGET = new PrivacyBudget(1, 1e-5);
  private static final CompositeObjective LOGISTIC_L2 =
      CompositeObjective.of(GlmLoss.logistic(), Regularizer.l2(0.05));

  private static ErmProblem problem(int k) {
    ErmDataset data = ErmFixtures.classification(8L, 200, BOUNDS, new double[] {1, -0.5, 2});
    ErmOptions options = ErmOptions.defaults().withClipNorm(1).withZcdpRule(ZcdpRule.TIGHT);
    return ErmProblem.of(data, LOGISTIC_L2, BUDGET, 3, options).withMaxContributions(k);
  }

  @ParameterizedTest
  @ValueSource(ints = {2, 5})
  void coordinateMethodsMultiplyEverySigmaByK(int k) {
    // The query's sensitivity 2 k L_j / n is k times the one-record 2 L_j / n, and the Gaussian mechanism's sigma
    // is linear in the sensitivity at a fixed budget.
    LoopSchedule schedule = LoopSchedule.ofPasses(3, BOUNDS.length, false);
    double[] one = CoordinateRun.open(problem(1), schedule, j -> 1.0 + j).sigmas();
    double[] group = CoordinateRun.open(problem(k), schedule, j -> 1.0 + j).sigmas();
    for (int j = 0; j < one.length; j++) {
      assertEquals(k * one[j], group[j], 1e-12 * group[j], "coordinate " + j);
      assertTrue(group[j] >= k * one[j] * (1 - 1e-15), "rounded to the safe side");
    }
  }

  @Test
  void dpCdAndDpSkgdStateTheUnitInTheirDescription() {
    for (ErmAlgorithm algorithm : new ErmAlgorithm[] {new DpCd(DpCd.ClippingRule.SMOOTH),
        new DpSkgd(DpSkgd.Sampling.UNIFORM)}) {
      String description = algorithm.train(problem(5), SOURCE, "describe", PassListener.NONE).describe();
      assertTrue(description.contains("per person: up to k=5 records each"), description);
      String perRecord = algorithm.train(problem(1), SOURCE, "describe", PassListener.NONE).describe();
      assertFalse(perRecord.contains("per person"), perRecord);
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {2, 5})
  void outputPerturbationNoiseIsKTimesTheOneRecordNoise(int k) {
    // Same key and run id: the same unit draws, scaled by sigma; the minimiser's sensitivity 2kR/(n lambda) is k
    // times the one-record one, so the noise added to the minimiser is k times larger.
    OutputPerturbation algorithm = new OutputPerturbation();
    double[] optimum = NonPrivateSolver.solve(problem(1).dataset(), LOGISTIC_L2).weights();
    double[] one = algorithm.train(problem(1), SOURCE, "run", PassListener.NONE).finalWeights();
    double[] group = algorithm.train(problem(k), SOURCE, "run", PassListener.NONE).finalWeights();
    for (int j = 0; j < optimum.length; j++) {
      double noiseOne = one[j] - optimum[j];
      assertEquals(k * noiseOne, group[j] - optimum[j], 1e-9 * Math.max(1, Math.abs(k * noiseOne)));
    }
  }

  @Test
  void objectivePerturbationForKRecordsIsTheOneRecordRunAtEpsilonOverK() {
    ObjectivePerturbation algorithm = new ObjectivePerturbation();
    int k = 4;
    ErmRun group = algorithm.train(problem(k), SOURCE, "run", PassListener.NONE);
    ErmProblem quarter = ErmProblem.of(problem(1).dataset(), LOGISTIC_L2,
        new PrivacyBudget(BUDGET.epsilon() / k, BUDGET.delta()), 3, problem(1).options());
    ErmRun oneAtQuarter = algorithm.train(quarter, SOURCE, "run", PassListener.NONE);
    assertArrayEquals(oneAtQuarter.finalWeights(), group.finalWeights(), 0);
    assertEquals(BUDGET.epsilon(), group.privacySpent().orElseThrow().epsilon(), 0,
        "pure (epsilon/k)-DP per record is epsilon-DP for k records");
  }

  @ParameterizedTest
  @ValueSource(ints = {2, 5, 20})
  void dpSgdNoiseIsKTimesTheOneRecordMultiplierAtTheGroupSamplingRate(int k) {
    double q = 0.01;
    long steps = 3000;
    SubsampledGaussianCalibration one = SubsampledGaussianCalibration.of(q, steps, BUDGET, RdpConversion.CLASSIC);
    SubsampledGaussianCalibration group =
        SubsampledGaussianCalibration.forGroup(q, steps, BUDGET, RdpConversion.CLASSIC, k);
    double groupRate = 1 - Math.pow(1 - q, k);
    double accounted = SubsampledGaussianRdp.calibrate(groupRate, steps, BUDGET, RdpConversion.CLASSIC)
        .noiseMultiplier();
    assertEquals(k * accounted, group.noiseMultiplier(), 1e-6 * k * accounted);
    assertTrue(group.noiseMultiplier() > one.noiseMultiplier());
    // The accounted mechanism (rate q_k, multiplier z / k) fits the budget.
    double epsilon = SubsampledGaussianRdp.of(groupRate * (1 + 1e-12), group.noiseMultiplier() / k)
        .epsilon(steps, BUDGET.delta(), RdpConversion.CLASSIC);
    assertTrue(epsilon <= BUDGET.epsilon() * (1 + 1e-9), "epsilon " + epsilon);
    assertTrue(group.accountant().contains("up to " + k + " records"), group.accountant());
  }

  @Test
  void dpSgdRunUsesTheGroupCalibration() {
    ErmRun run = new DpSgd().train(problem(3), SOURCE, "run", PassListener.NONE);
    assertTrue(run.describe().contains("up to k=3 records"), run.describe());
    assertTrue(run.ledger().orElseThrow().accountant().contains("up to 3 records"));
  }

  @Test
  void aGroupOfNoRecordsIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> problem(1).withMaxContributions(0));
    assertThrows(IllegalArgumentException.class,
        () -> SubsampledGaussianCalibration.forGroup(0.1, 10, BUDGET, RdpConversion.CLASSIC, 0));
  }
}
