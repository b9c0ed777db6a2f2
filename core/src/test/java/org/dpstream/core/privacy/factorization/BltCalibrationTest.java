package org.dpstream.core.privacy.factorization;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpstream.core.privacy.accounting.GaussianZcdpMap;
import org.dpstream.core.privacy.accounting.SensitivityStructure;
import org.dpstream.core.privacy.accounting.ZcdpBudget;
import org.dpstream.core.privacy.accounting.PrivacyBudget;
import org.dpstream.core.privacy.accounting.PrivacyLedger;
import org.dpstream.core.privacy.accounting.ZcdpConversion;
import org.dpstream.core.privacy.accounting.ZeroConcentratedDp;
import org.junit.jupiter.api.Test;

/** The sensitivity and privacy map of a BLT, on the one-buffer strategy worked by hand in {@link BltStrategyTest}. */
class BltCalibrationTest {

  private static final BltStrategy HALF_QUARTER = BltStrategy.of(new double[] {0.5}, new double[] {0.25});
  private static final PrivacyBudget BUDGET = new PrivacyBudget(1, 1e-3);

  /**
   * C for n = 3 is [[1, 0, 0], [1/4, 1, 0], [1/8, 1/4, 1]]: column norms^2 69/64, 17/16, 1; the largest is the
   * first, so replacing one leaf (l2 change at most S = 2) moves C x by at most 2 sqrt(69/64). Hence
   * sigma = 2 sqrt((69/64) / (2 rho_max)) and rho(t) = rho_max F(t) / F(3): 64/69, 68/69 and 1 of rho_max.
   */
  @Test
  void sigmaAndTheMapFollowTheLargestColumnNorm() {
    double[][] c = {{1, 0, 0}, {0.25, 1, 0}, {0.125, 0.25, 1}};
    double largest = 0;
    for (int column = 0; column < 3; column++) {
      double norm = 0;
      for (double[] row : c) {
        norm += row[column] * row[column];
      }
      largest = Math.max(largest, norm);
    }
    assertEquals(69.0 / 64, largest, 0);
    GaussianZcdpMap calibration = GaussianZcdpMap.calibrate("test", ZcdpBudget.of(BUDGET, ZcdpConversion.SIMPLE), 2,
        SensitivityStructure.toeplitz(3, HALF_QUARTER::squaredColumnNormUpperBounds));
    double rhoMax = ZeroConcentratedDp.maxRho(1, 1e-3);
    assertEquals(rhoMax, calibration.rhoBudget(), 0);
    assertEquals(2 * Math.sqrt(largest / (2 * rhoMax)), calibration.sigma(), 1e-12 * calibration.sigma());
    assertEquals(rhoMax * 64 / 69, calibration.rhoAfter(1), 1e-12 * rhoMax);
    assertEquals(rhoMax * 68 / 69, calibration.rhoAfter(2), 1e-12 * rhoMax);
    assertEquals(rhoMax, calibration.rhoAfter(3), 1e-12 * rhoMax);
    assertTrue(calibration.rhoAfter(3) <= rhoMax * (1 + 1e-12));
    assertEquals(ZcdpConversion.SIMPLE.epsilon(calibration.rhoAfter(2), 1e-3), calibration.spentAfter(2).epsilon(), 0);
    assertTrue(calibration.spentAfter(3).isWithin(BUDGET));
    assertEquals(calibration.spentAfter(3), calibration.spentAfter(1000), "past the horizon: the next epoch");
  }

  /** A ledger fed with the map of an optimised BLT accepts every step of the horizon and lands near the budget. */
  @Test
  void theLedgerAcceptsEveryStepOfTheHorizon() {
    long horizon = 300;
    BltStrategy strategy = BltOptimizer.forHorizon(horizon);
    GaussianZcdpMap calibration = GaussianZcdpMap.calibrate("zcdp-cks20-blt",
        ZcdpBudget.of(new PrivacyBudget(0.5, 1e-6)), 1,
        SensitivityStructure.toeplitz(horizon, strategy::squaredColumnNormUpperBounds));
    PrivacyLedger ledger = PrivacyLedger.open(calibration);
    for (long t = 1; t <= horizon; t++) {
      ledger = ledger.reserve(calibration.spentAfter(t));
    }
    assertTrue(ledger.spentEpsilon() <= 0.5 && ledger.spentEpsilon() > 0.5 * (1 - 1e-6), ledger::toString);
    double bound = strategy.squaredColumnNormUpperBounds(new long[] {horizon})[0];
    assertEquals(Math.sqrt(bound / (2 * calibration.rhoBudget())), calibration.sigma(), 1e-9);
  }
}
