package org.dpstream.core.erm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpstream.core.erm.privacy.GaussianCompositionCalibration;
import org.dpstream.core.erm.privacy.RdpConversion;
import org.dpstream.core.erm.privacy.SubsampledGaussianCalibration;
import org.dpstream.core.erm.privacy.ZcdpRule;
import org.dpstream.core.loss.GlmLoss;
import org.dpstream.core.privacy.accounting.PrivacyBudget;
import org.dpstream.core.privacy.accounting.PrivacyLedger;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.testing.TestKeys;
import org.junit.jupiter.api.Test;

/** Every batch run carries the ledger in which it reserved its whole cost; a non-private run carries none. */
class BatchRunLedgerTest {

  private static final KeyedNoiseSource SOURCE = new KeyedNoiseSource(TestKeys.seeded(16));
  private static final PrivacyBudget BUDGET = new PrivacyBudget(1, 1e-5);
  private static final CompositeObjective LOGISTIC_L2 = CompositeObjective.of(GlmLoss.logistic(), Regularizer.l2(0.05));
  private static final ErmDataset DATA = ErmFixtures.classification(3L, 100, new double[] {1, 2, 0.5}, new double[] {1, -1, 2});
  private static final ErmOptions OPTIONS = ErmOptions.defaults().withClipNorm(1).withZcdpRule(ZcdpRule.TIGHT);

  private static PrivacyLedger ledgerOf(String algorithm, int passes) {
    ErmRun run = ErmAlgorithms.byName(algorithm).train(ErmProblem.of(DATA, LOGISTIC_L2, BUDGET, passes, OPTIONS),
        SOURCE, "ledger", PassListener.NONE);
    PrivacyLedger ledger = run.ledger().orElseThrow();
    assertEquals(BUDGET, ledger.budget());
    assertEquals(0, ledger.epoch());
    assertEquals(new PrivacyBudget(ledger.spentEpsilon(), ledger.spentDelta()), run.privacySpent().orElseThrow());
    return ledger;
  }

  @Test
  void dpCdReservesItsPassesTimesDMechanisms() {
    PrivacyLedger ledger = ledgerOf("dpcd-smooth", 4);
    GaussianCompositionCalibration map = GaussianCompositionCalibration.of(BUDGET, 12, ZcdpRule.TIGHT);
    assertEquals(12, ledger.horizon());
    assertEquals("zcdp-cks20(replace-one; spent by zcdp-cks20)", ledger.accountant());
    assertEquals(map.spent().epsilon(), ledger.spentEpsilon());
    assertEquals(1e-5, ledger.spentDelta());
  }

  @Test
  void dpSkgdReservesEveryBlockUpdate() {
    // b = d = 3 blocks of one coordinate, 2 passes: 6 updates
    PrivacyLedger ledger = ledgerOf("dpskgd-uniform", 2);
    assertEquals(6, ledger.horizon());
    assertEquals(GaussianCompositionCalibration.of(BUDGET, 6, ZcdpRule.TIGHT).spent().epsilon(), ledger.spentEpsilon());
  }

  @Test
  void dpSgdReservesItsSubsampledSteps() {
    // q = 10 / n = 0.1: 10 steps per pass, 3 passes
    PrivacyLedger ledger = ledgerOf("dpsgd", 3);
    assertEquals(30, ledger.horizon());
    assertEquals("rdp-poisson-gaussian(add/remove)/mironov17", ledger.accountant());
    SubsampledGaussianCalibration map = SubsampledGaussianCalibration.of(0.1, 30, BUDGET, RdpConversion.CLASSIC);
    assertEquals(map.spentAfter(30).epsilon(), ledger.spentEpsilon());
    assertTrue(ledger.spentEpsilon() <= 1 && ledger.spentEpsilon() > 0.999, ledger::toString);
  }

  @Test
  void thePerturbationBaselinesReserveOneRelease() {
    PrivacyLedger output = ledgerOf("output-perturbation", 1);
    assertEquals(1, output.horizon());
    assertEquals(GaussianCompositionCalibration.of(BUDGET, 1, ZcdpRule.TIGHT).spent().epsilon(), output.spentEpsilon());
    PrivacyLedger objective = ledgerOf("objective-perturbation", 1);
    assertEquals(1, objective.horizon());
    assertEquals("pure-epsilon-dp(cms11 objective perturbation, replace-one)", objective.accountant());
    assertEquals(1, objective.spentEpsilon());
    assertEquals(0, objective.spentDelta());
  }

  @Test
  void aNonPrivateRunHasNoLedger() {
    for (String algorithm : ErmAlgorithms.names()) {
      ErmRun run = ErmAlgorithms.byName(algorithm).train(ErmProblem.nonPrivate(DATA, LOGISTIC_L2, 1, OPTIONS), SOURCE,
          "np", PassListener.NONE);
      assertTrue(run.ledger().isEmpty() && run.privacySpent().isEmpty(), algorithm);
    }
  }

  @Test
  void onlyDpSgdIsAddRemove() {
    for (String algorithm : ErmAlgorithms.names()) {
      assertEquals(algorithm.equals("dpsgd") ? ErmAlgorithm.Adjacency.ADD_REMOVE : ErmAlgorithm.Adjacency.REPLACE_ONE,
          ErmAlgorithms.byName(algorithm).adjacency(), algorithm);
    }
  }
}
