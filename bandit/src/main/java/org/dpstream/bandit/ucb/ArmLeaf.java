package org.dpstream.bandit.ucb;

import org.ejml.data.DMatrixRMaj;

/**
 * The layout of one arm's tree leaf: the upper triangle (i &lt;= j, row-major) of x x', then r x. One
 * noise coordinate per upper-triangle entry, mirrored below the diagonal on release, is the symmetrised
 * noise of Shariff and Sheffet (section 4.2): the released Gram matrix stays symmetric.
 */
final class ArmLeaf {

  private ArmLeaf() {}

  /** d (d + 1) / 2 + d. */
  static int length(int dimension) {
    return Math.addExact(Math.multiplyExact(dimension, dimension + 1) / 2, dimension);
  }

  /** Writes the leaf of (x, r) into {@code leaf}. */
  static void pack(double[] x, double r, double[] leaf) {
    int k = 0;
    for (int i = 0; i < x.length; i++) {
      for (int j = i; j < x.length; j++) {
        leaf[k++] = x[i] * x[j];
      }
    }
    for (double xi : x) {
      leaf[k++] = r * xi;
    }
  }

  /** Reads a released prefix sum back: the symmetric Gram matrix and the reward vector. */
  static void unpack(double[] sum, DMatrixRMaj gram, double[] rewardVector) {
    int d = rewardVector.length;
    int k = 0;
    for (int i = 0; i < d; i++) {
      for (int j = i; j < d; j++) {
        gram.unsafe_set(i, j, sum[k]);
        gram.unsafe_set(j, i, sum[k]);
        k++;
      }
    }
    System.arraycopy(sum, k, rewardVector, 0, d);
  }

  /**
   * The l2 sensitivity of the leaves of all K arms concatenated, when one round's (x, r, arm) is
   * replaced, with ||x||_2 &lt;= L and |r| &lt;= B. Same arm: ||x x' - y y'||_F^2 = ||x||^4 + ||y||^4 -
   * 2 (x'y)^2 &lt;= 2 L^4 and ||r x - s y||_2 &lt;= 2 B L. Different arms: two blocks change, each by at
   * most sqrt(L^4 + B^2 L^2), which is smaller. So S = sqrt(2 L^4 + 4 B^2 L^2), and the upper
   * triangle's norm is at most the Frobenius norm. Rounding to the lattice moves each of the (at most
   * two) changed blocks by at most {@code blockRoundingSlack}.
   */
  static double concatenatedSensitivity(double contextL2, double reward, double blockRoundingSlack) {
    double l2 = contextL2 * contextL2;
    double exact = Math.sqrt(2 * l2 * l2 + 4 * reward * reward * l2);
    return Math.nextUp(Math.nextUp(exact) + 2 * blockRoundingSlack);
  }
}
