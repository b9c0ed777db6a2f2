package org.dpstream.bandit.linear;

/**
 * The layout of one arm's statistics leaf, m = d (d + 1) / 2 + d numbers: the upper triangle of
 * sum x x' row by row (i &lt;= j), then sum x r. Released leaves are read back into a symmetric Gram
 * matrix and a moment vector.
 */
final class SufficientStatistics {

  private SufficientStatistics() {}

  /** Writes the contribution of one (x, r) into {@code leaf} (length m). */
  static void contribution(double[] x, double r, double[] leaf) {
    int d = x.length;
    int at = 0;
    for (int i = 0; i < d; i++) {
      double xi = x[i];
      for (int j = i; j < d; j++) {
        leaf[at++] = xi * x[j];
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
      for (int j = i; j < d; j++) {
        gram[i * d + j] = released[at];
        gram[j * d + i] = released[at];
        at++;
      }
    }
  }

  /** Copies the moment vector sum x r out of a released leaf. */
  static void moment(double[] released, int d, double[] moment) {
    System.arraycopy(released, d * (d + 1) / 2, moment, 0, d);
  }
}
