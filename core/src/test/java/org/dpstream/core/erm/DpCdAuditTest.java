package org.dpstream.core.erm;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.dpstream.core.erm.privacy.ZcdpRule;
import org.dpstream.core.loss.GlmLoss;
import org.dpstream.core.privacy.accounting.PrivacyBudget;
import org.dpstream.core.privacy.audit.AuditResult;
import org.dpstream.core.privacy.audit.AuditedMechanism;
import org.dpstream.core.privacy.audit.PrivacyAuditor;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.testing.TestKeys;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestReporter;

/**
 * The empirical privacy audit on one real DP-CD coordinate update (d = 1, one pass, so
 * T K = 1), keyed noise and Theorem 1 calibration included.
 *
 * <p>Neighbouring datasets (replace-one) of n = 4 records with x = 1 differ in record 0's label, +5 vs -5:
 * at w^0 = 0 its per-sample derivative x (0 - y) is -5 vs +5, far outside the clip C = 1, so after clipping
 * the two partial derivatives differ by exactly the calibrated sensitivity 2C/n. The released weight
 * w^1 = -gamma (g + eta) is a monotone function of the noisy derivative, hence the likelihood-ratio statistic.
 */
class DpCdAuditTest {

  private static final KeyedNoiseSource SOURCE = new KeyedNoiseSource(TestKeys.seeded(21));
  private static final int RUNS_PER_INPUT = 100_000;
  private static final double CLIP = 1.0;

  private static AuditedMechanism oneCoordinateUpdate(PrivacyBudget budget, ZcdpRule rule) {
    return oneCoordinateUpdate(budget, rule, 1, 1);
  }

  /**
   * The update on neighbours that differ in the labels of the first {@code changed} records (one person's), run
   * with the guarantee stated for up to {@code accountedK} records.
   */
  private static AuditedMechanism oneCoordinateUpdate(PrivacyBudget budget, ZcdpRule rule, int accountedK,
      int changed) {
    CompositeObjective objective = CompositeObjective.of(GlmLoss.squared(), Regularizer.none());
    ErmOptions options = ErmOptions.defaults().withClipNorm(CLIP).withZcdpRule(rule);
    ErmProblem original = ErmProblem.of(dataset(5, changed), objective, budget, 1, options)
        .withMaxContributions(accountedK);
    ErmProblem neighbour = ErmProblem.of(dataset(-5, changed), objective, budget, 1, options)
        .withMaxContributions(accountedK);
    DpCd dpcd = new DpCd(DpCd.ClippingRule.SMOOTH);
    return (useNeighbour, rng) -> {
      // A fresh run id per run: independent noise, drawn exactly as in production.
      ErmRun run = dpcd.train(useNeighbour ? neighbour : original, SOURCE, Long.toHexString(rng.nextLong()),
          PassListener.NONE);
      return run.finalWeights()[0];
    };
  }

  private static ErmDataset dataset(double changedLabel, int changed) {
    double[] labels = {0.5, 0.5, -0.5, 0.25};
    java.util.Arrays.fill(labels, 0, changed, changedLabel);
    return ErmDataset.of(new double[][] {{1}, {1}, {1}, {1}}, labels, FeatureBounds.of(1));
  }

  private static AuditResult audit(PrivacyBudget budget, ZcdpRule rule, long seed) {
    return audit(oneCoordinateUpdate(budget, rule), budget, seed);
  }

  private static AuditResult audit(AuditedMechanism mechanism, PrivacyBudget budget, long seed) {
    UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(seed);
    return PrivacyAuditor.of(1e-3, budget.delta()).audit(mechanism, RUNS_PER_INPUT, rng);
  }

  @Test
  void calibratedCoordinateUpdatePassesTheAudit(TestReporter reporter) {
    PrivacyBudget budget = new PrivacyBudget(1.0, 1e-5);
    AuditResult result = audit(budget, ZcdpRule.PAPER_CLOSED_FORM, 41L);
    reporter.publishEntry("audit", result.toString());
    result.assertAtMost(budget.epsilon());
    assertTrue(result.epsilonLowerBound() > 0.2, result.toString());
  }

  @Test
  void anUndernoisedUpdateIsCaught(TestReporter reporter) {
    // Noise calibrated for epsilon = 8 while claiming epsilon = 1: the audit must find the violation.
    AuditResult result = audit(new PrivacyBudget(8.0, 1e-5), ZcdpRule.SIMPLE_EXACT, 42L);
    reporter.publishEntry("audit", result.toString());
    assertThrows(AssertionError.class, () -> result.assertAtMost(1.0), result.toString());
  }

  @Test
  void aPersonsThreeRecordsAccountedForThreePassTheAudit(TestReporter reporter) {
    // Neighbours differ in all 3 records of one person; the run accounts for k = 3.
    PrivacyBudget budget = new PrivacyBudget(1.0, 1e-5);
    AuditResult result = audit(oneCoordinateUpdate(budget, ZcdpRule.PAPER_CLOSED_FORM, 3, 3), budget, 43L);
    reporter.publishEntry("audit", result.toString());
    result.assertAtMost(budget.epsilon());
    assertTrue(result.epsilonLowerBound() > 0.2, result.toString());
  }

  @Test
  void aPersonsThreeRecordsAccountedAsOneAreCaught(TestReporter reporter) {
    // Negative control: the same neighbours, accounted as if a person changed one record (k = 1).
    PrivacyBudget budget = new PrivacyBudget(1.0, 1e-5);
    AuditResult result = audit(oneCoordinateUpdate(budget, ZcdpRule.SIMPLE_EXACT, 1, 3), budget, 44L);
    reporter.publishEntry("audit", result.toString());
    assertThrows(AssertionError.class, () -> result.assertAtMost(budget.epsilon()), result.toString());
  }
}
