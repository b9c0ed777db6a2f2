package org.dpstream.bandit.hdb;

import java.util.Arrays;
import org.dpstream.core.privacy.accounting.PrivacyBudget;
import org.dpstream.core.privacy.accounting.PrivacyLedger;
import org.dpstream.core.privacy.accounting.Rounding;

/**
 * How DP-HDB's total budget is split over the arms, and what the arms' ledgers add up to, for
 * neighbouring inputs that differ in one user's (context, reward) at one round t.
 *
 * <p><b>What one user changes.</b> The arm a_t that receives user t's real sample is a function of the
 * released parameters and of user t's own context. So between neighbours, a_t may become a'_t: arm a_t
 * sees the real sample on one side and the synthetic (0, zeta(0)) on the other, and so does a'_t. Every
 * other arm sees the same sample at round t on both sides, and at every later round its input is a
 * function of earlier releases and of other users' data only (their decisions are post-processing of
 * the releases), so its privacy loss is zero. Hence at most two arms' streams differ, each in one
 * sample.
 *
 * <p><b>Calibration.</b> Each arm's DP-POFW bounds the privacy loss of its own release sequence with
 * respect to one of its samples by (epsilon_arm, delta_arm), for adaptively chosen inputs. The whole
 * release is an adaptive composition over all arms' steps in which only the two affected arms' steps
 * have non-zero loss; basic composition over those two arms gives (2 epsilon_arm, 2 delta_arm). So each
 * arm gets (epsilon / 2, delta / 2) when K &gt;= 2, and the release of all arms' parameters is
 * (epsilon, delta)-DP; every other user's decision is post-processing of it plus their own context,
 * which is (epsilon, delta)-joint DP (Definition 4.1; Shariff and Sheffet 2018). With K = 1 only one
 * arm exists and it gets the whole budget.
 *
 * <p>The proof of Theorem 4.1 (appendix B.1) reduces the ratio to the two arms j_i and j'_i, as here,
 * and then asserts it is at most e^epsilon "by the synthetic update", with each arm run at epsilon. Two
 * arms each at epsilon compose to 2 epsilon in general; nothing in the synthetic update halves it.
 * We therefore halve the budget per arm (docs/bandit-privacy.md).
 */
public final class JointDpCalibration {

  /** Arms whose input stream one user can change: the one chosen and the one a neighbour would choose. */
  public static final int AFFECTED_ARMS_PER_USER = 2;

  private JointDpCalibration() {}

  /** (epsilon / m, delta / m) with m = min(K, 2), the arms one user can affect. */
  public static PrivacyBudget armBudget(PrivacyBudget total, int arms) {
    if (arms < 1) {
      throw new IllegalArgumentException("arms must be positive: " + arms);
    }
    int affected = Math.min(arms, AFFECTED_ARMS_PER_USER);
    // Halving is exact in binary floating point, so the parts add up to the total exactly.
    return new PrivacyBudget(total.epsilon() / affected, total.delta() / affected);
  }

  /**
   * The joint privacy loss of everything the arms have released: the sum of the two largest spent
   * epsilons and of the two largest spent deltas over the arms (any two arms may be the affected
   * ones), rounded up.
   */
  public static JointPrivacyLoss spent(PrivacyBudget total, PrivacyLedger... armLedgers) {
    double[] epsilons = new double[armLedgers.length];
    double[] deltas = new double[armLedgers.length];
    for (int i = 0; i < armLedgers.length; i++) {
      epsilons[i] = armLedgers[i].spentEpsilon();
      deltas[i] = armLedgers[i].spentDelta();
    }
    return new JointPrivacyLoss(sumOfLargest(epsilons), sumOfLargest(deltas), total);
  }

  private static double sumOfLargest(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    double sum = 0;
    for (int i = sorted.length - 1; i >= Math.max(0, sorted.length - AFFECTED_ARMS_PER_USER); i--) {
      sum = Rounding.tightSumUp(sum, sorted[i]);
    }
    return sum;
  }
}
