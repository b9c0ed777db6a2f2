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
 *
 * <p><b>Person level</b> (k rounds of one person, {@code participations}). Each of the person's rounds changes at
 * most two arms' streams by one sample each, as above, so the k rounds change at most 2k arm samples: at most k of
 * one arm's samples (one per round), on at most m = min(K, 2k) arms, whether they all hit two arms k times each or
 * 2k arms once each. Each arm is calibrated for k of its samples (its DP-POFW's {@code participations}), which
 * covers any j &lt;= k of them, so basic composition over the m affected arms gives (m epsilon_arm, m delta_arm):
 * each arm gets (epsilon / m, delta / m), and k = 1 is the event-level split above (docs/privacy-layer.md,
 * "Person-level bandits").
 */
public final class JointDpCalibration {

  /** Arms whose input stream one user can change: the one chosen and the one a neighbour would choose. */
  public static final int AFFECTED_ARMS_PER_USER = 2;

  private JointDpCalibration() {}

  /** (epsilon / m, delta / m) with m = min(K, 2), the arms one user can affect. */
  public static PrivacyBudget armBudget(PrivacyBudget total, int arms) {
    return armBudget(total, arms, 1);
  }

  /** m = min(K, 2k): the arms whose streams k rounds of one person can change. */
  public static int affectedArms(int arms, int participations) {
    if (arms < 1 || participations < 1) {
      throw new IllegalArgumentException("arms and participations must be positive: K=" + arms + ", k="
          + participations);
    }
    return (int) Math.min(arms, (long) AFFECTED_ARMS_PER_USER * participations);
  }

  /**
   * (epsilon / m, delta / m) with m = {@link #affectedArms}, at most the exact quotients, so that the m parts add
   * up to at most the total: exact for m a power of two (halving is exact in binary floating point, and the
   * event-level split keeps its bits), otherwise the double below the rounded quotient (within one ulp of it).
   */
  public static PrivacyBudget armBudget(PrivacyBudget total, int arms, int participations) {
    int affected = affectedArms(arms, participations);
    return new PrivacyBudget(partOf(total.epsilon(), affected), partOf(total.delta(), affected));
  }

  private static double partOf(double total, int parts) {
    double quotient = total / parts;
    return Integer.bitCount(parts) == 1 || quotient == 0 ? quotient : Math.nextDown(quotient);
  }

  /**
   * The joint privacy loss of everything the arms have released: the sum of the two largest spent
   * epsilons and of the two largest spent deltas over the arms (any two arms may be the affected
   * ones), rounded up.
   */
  public static JointPrivacyLoss spent(PrivacyBudget total, PrivacyLedger... armLedgers) {
    return spent(total, 1, armLedgers);
  }

  /**
   * The joint privacy loss of everything the arms have released for k rounds of one person: the sums of the
   * {@link #affectedArms} largest spent epsilons and deltas, rounded up.
   */
  public static JointPrivacyLoss spent(PrivacyBudget total, int participations, PrivacyLedger... armLedgers) {
    int affected = affectedArms(Math.max(1, armLedgers.length), participations);
    double[] epsilons = new double[armLedgers.length];
    double[] deltas = new double[armLedgers.length];
    for (int i = 0; i < armLedgers.length; i++) {
      epsilons[i] = armLedgers[i].spentEpsilon();
      deltas[i] = armLedgers[i].spentDelta();
    }
    return new JointPrivacyLoss(sumOfLargest(epsilons, affected), sumOfLargest(deltas, affected), total);
  }

  private static double sumOfLargest(double[] values, int count) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    double sum = 0;
    for (int i = sorted.length - 1; i >= Math.max(0, sorted.length - count); i--) {
      sum = Rounding.tightSumUp(sum, sorted[i]);
    }
    return sum;
  }
}
