package org.dpstream.bandit.linear;

/**
 * The layout of one arm's statistics leaf, m = d (d + 1) / 2 + d numbers: svec(sum x x'), the upper triangle
 * row by row (i &lt;= j) with the off-diagonal entries multiplied by sqrt(2), then sum x r. svec is an isometry
 * (||svec(A)||_2 = ||A||_F), so the Gram part of one contribution has l2 norm ||x x'||_F = ||x||_2^2, and isotropic
 * release noise of standard deviation s becomes s on the diagonal and s / sqrt(2) off it once read back.
 * Released leaves are read back into a symmetric Gram matrix and a moment vector.
 */
final class SufficientStatistics {

  static final double SQRT2 = Math.sqrt(2);

  private SufficientStatistics() {}

  /** Writes the contribution of one (x, r) into {@code leaf} (length m). */
  static void contribution(double[] x, double r, double[] leaf) {
    int d = x.length;
    int at = 0;
    for (int i = 0; i < d; i++) {
      double xi = x[i];
      leaf[at++] = xi * xi;
      for (int j = i + 1; j < d; j++) {
        leaf[at++] = SQRT2 * (xi * x[j]);
      }
    }
    for (int i = 0; i < d; i++) {
      leaf[at++] = x[i] * r;
    }
  }

  /** Fills the symmetric d x d Gram matrix (row-major) from a released leaf. */
  static void gram(double[] released, int d, double[] gram) {
    int at = 0;
    for (int i = 0; i < d; i++) {
      gram[i * d + i] = released[at++];
      for (int j = i + 1; j < d; j++) {
        double value = released[at++] / SQRT2;
        gram[i * d + j] = value;
        gram[j * d + i] = value;
      }
    }
  }

  /** Copies the moment vector sum x r out of a released leaf. */
  static void moment(double[] released, int d, double[] moment) {
    System.arraycopy(released, d * (d + 1) / 2, moment, 0, d);
  }
}
