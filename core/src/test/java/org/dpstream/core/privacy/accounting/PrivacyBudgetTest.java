package org.dpstream.core.privacy.accounting;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class PrivacyBudgetTest {

  @Test
  void rejectsEpsilonThatIsNotPositiveAndFinite() {
    for (double epsilon : new double[] {0, -1, Double.NaN, Double.POSITIVE_INFINITY}) {
      assertThrows(IllegalArgumentException.class, () -> new PrivacyBudget(epsilon, 1e-5));
    }
  }

  @Test
  void rejectsDeltaOutsideZeroInclusiveOneExclusive() {
    for (double delta : new double[] {-1e-9, 1, 2, Double.NaN}) {
      assertThrows(IllegalArgumentException.class, () -> new PrivacyBudget(1, delta));
    }
    new PrivacyBudget(1, 0); // pure DP is a valid budget
  }

  @Test
  void isWithinComparesBothComponentsExactly() {
    PrivacyBudget budget = new PrivacyBudget(1, 1e-5);
    assertTrue(budget.isWithin(budget));
    assertTrue(new PrivacyBudget(0.5, 0).isWithin(budget));
    assertFalse(new PrivacyBudget(Math.nextUp(1.0), 1e-5).isWithin(budget));
    assertFalse(new PrivacyBudget(1, Math.nextUp(1e-5)).isWithin(budget));
  }
}
