package org.dpstream.bandit;

import org.dpstream.bandit.hdb.DpHdbPolicy;
import org.dpstream.bandit.linear.DpLinearSpec;
import org.dpstream.bandit.linear.DpLinearPolicy;

/**
 * The policy a bandit gets when its configuration names none: a public function of the spec (d, K, T, epsilon),
 * never of the data, chosen by the protocol of docs/design/bandit-default-protocol.md (whose selection runs
 * and results are recorded there).
 *
 * <p>The rule: DP-Linear wherever its statistics fit ({@link DpLinearSpec#leafDimension(int)} at most
 * {@link DpLinearSpec#MAX_LEAF_DIMENSION}, i.e. d &lt;= 1446); DP-HDB beyond, where it is the only policy.
 */
public final class DefaultPolicy {

  private DefaultPolicy() {}

  /**
   * @return {@link DpLinearPolicy#NAME} or {@link DpHdbPolicy#NAME}
   * @throws IllegalArgumentException on a non-positive d, K, T or epsilon
   */
  public static String nameFor(int dimension, int arms, long horizon, double epsilon) {
    if (dimension < 1 || arms < 1 || horizon < 1 || !(epsilon > 0)) {
      throw new IllegalArgumentException("need d, K, T >= 1 and epsilon > 0: d=" + dimension + ", K=" + arms + ", T="
          + horizon + ", epsilon=" + epsilon);
    }
    return DpLinearSpec.fits(dimension) ? DpLinearPolicy.NAME : DpHdbPolicy.NAME;
  }
}
