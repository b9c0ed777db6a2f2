package org.dpstream.core.privacy.accounting;

import org.apache.commons.statistics.distribution.NormalDistribution;

/**
 * Test oracle: the exact privacy curve of the Gaussian mechanism (Balle and Wang 2018, Theorem 8). Adding
 * N(0, sigma^2) to a query of l2 sensitivity S is (epsilon, delta)-DP exactly when
 * delta &gt;= Phi(S/(2 sigma) - epsilon sigma/S) - e^epsilon Phi(-S/(2 sigma) - epsilon sigma/S).
 */
final class GaussianPrivacyCurve {

  private static final NormalDistribution STANDARD_NORMAL = NormalDistribution.of(0, 1);

  private GaussianPrivacyCurve() {}

  static double exactDelta(double epsilon, double sensitivity, double sigma) {
    double a = sensitivity / (2 * sigma);
    double b = epsilon * sigma / sensitivity;
    return STANDARD_NORMAL.cumulativeProbability(a - b)
        - Math.exp(epsilon) * STANDARD_NORMAL.cumulativeProbability(-a - b);
  }
}
