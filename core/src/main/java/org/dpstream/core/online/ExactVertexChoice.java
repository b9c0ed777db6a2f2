package org.dpstream.core.online;

import org.dpstream.core.privacy.accounting.ExponentialMechanismCalibration;
import org.dpstream.core.privacy.accounting.Rounding;
import org.dpstream.core.privacy.noise.FixedPointExponentialMechanism;
import org.dpstream.core.privacy.noise.RandomBits;

/**
 * DP-POFW's vertex choice under {@code noise: discrete} (the default at p = 1 under {@code auto} and {@code zcdp}):
 * the exponential mechanism of {@link VertexChoice.Gumbel} over integer utilities, drawn by {@link
 * FixedPointExponentialMechanism} (the same work and bits whatever the data). The vertex s r e_j scores s r gamma
 * S_j / (k + 1), S_j in lattice units, and the common factor r gamma / (k + 1) &gt; 0 does not change the argmin, so
 * the utilities are u(2j) = -S_j (vertex +r e_j) and u(2j + 1) = S_j (-r e_j), S_j the epoch's sum of lattice
 * units. One sample moves each by at most
 * Delta_u = 2B ({@link PofwScoreLattice}); lambda_k = (epsilon_k - s) / (2 Delta_u), rounded down, with epsilon_k
 * the calibration's bounded-range parameter of step k and s the fixed-point draw's slack, so the step is (at
 * most) epsilon_k-bounded-range and the ledger's epsilon_k^2 / 8-zCDP per step holds as for the Gumbel draw.
 *
 * @param calibration the exponential mechanism's schedule (the same as the continuous path's)
 * @param lattice the lattice whose sensitivity lambda is calibrated for
 */
record ExactVertexChoice(ExponentialMechanismCalibration calibration, PofwScoreLattice lattice) {

  static ExactVertexChoice of(OnlineModelSpec spec) {
    if (!(VertexChoice.of(spec) instanceof VertexChoice.Gumbel gumbel)) {
      throw new IllegalArgumentException("noise: discrete at p = 1 needs accountant zcdp or auto (the exponential"
          + " mechanism); accountant: paper prices Laplace report-noisy-min, which stays continuous");
    }
    FixedPointExponentialMechanism.prepareTables();
    return new ExactVertexChoice(gumbel.calibration(), PofwScoreLattice.of(spec));
  }

  /**
   * lambda_k = (epsilon_k - s) / (4B), rounded down (4B &lt;= 2^32 is exact); 0 (a uniform choice, which is
   * 0-bounded-range) when epsilon_k &lt;= 2s, where the subtraction would lose its relative accuracy.
   */
  double lambdaAt(long k) {
    double epsilon = calibration.perStepEpsilon(k);
    double slack = FixedPointExponentialMechanism.BOUNDED_RANGE_SLACK;
    return epsilon <= 2 * slack ? 0.0 : Rounding.down((epsilon - slack) / (4.0 * lattice.bound()));
  }

  /**
   * Fills {@code utilities} from the unit sums and draws a vertex: 2j for +r e_j, 2j + 1 for -r e_j.
   *
   * @param sums S_j, |S_j| &lt; 2^61
   * @param utilities scratch of length 2d
   */
  int choose(long[] sums, long k, RandomBits bits, long[] utilities) {
    for (int j = 0; j < sums.length; j++) {
      utilities[2 * j] = -sums[j];
      utilities[2 * j + 1] = sums[j];
    }
    return FixedPointExponentialMechanism.sample(utilities, lambdaAt(k), bits);
  }

  String describe() {
    return calibration.accountant() + "/fixed-point-exponential-mechanism";
  }
}
