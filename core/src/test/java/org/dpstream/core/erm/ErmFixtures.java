package org.dpstream.core.erm;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;

/** Synthetic problems with known solutions for the ERM tests. */
final class ErmFixtures {

  private ErmFixtures() {}

  /** n x d features uniform in [-b_j, b_j], labels x' wTrue + small noise. */
  static ErmDataset regression(long seed, int n, double[] bounds, double[] trueWeights) {
    UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(seed);
    int d = bounds.length;
    double[][] x = new double[n][d];
    double[] y = new double[n];
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < d; j++) {
        x[i][j] = bounds[j] * (2 * rng.nextDouble() - 1);
        y[i] += x[i][j] * trueWeights[j];
      }
      y[i] += 0.1 * (2 * rng.nextDouble() - 1);
    }
    return ErmDataset.of(x, y, FeatureBounds.of(bounds));
  }

  /** Labels in {0, 1} from a noisy linear score. */
  static ErmDataset classification(long seed, int n, double[] bounds, double[] trueWeights) {
    UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(seed);
    int d = bounds.length;
    double[][] x = new double[n][d];
    double[] y = new double[n];
    for (int i = 0; i < n; i++) {
      double score = 0;
      for (int j = 0; j < d; j++) {
        x[i][j] = bounds[j] * (2 * rng.nextDouble() - 1);
        score += x[i][j] * trueWeights[j];
      }
      boolean positive = score > 0;
      y[i] = (rng.nextDouble() < 0.2) != positive ? 1 : 0;
    }
    return ErmDataset.of(x, y, FeatureBounds.of(bounds));
  }

  /** Ridge: w* = (X'X/n + lambda I)^-1 X'y/n, by Gaussian elimination with partial pivoting. */
  static double[] ridgeSolution(ErmDataset data, double lambda) {
    int n = data.size();
    int d = data.dimension();
    double[][] a = new double[d][d + 1];
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < d; j++) {
        for (int k = 0; k < d; k++) {
          a[j][k] += data.feature(i, j) * data.feature(i, k) / n;
        }
        a[j][d] += data.feature(i, j) * data.label(i) / n;
      }
    }
    for (int j = 0; j < d; j++) {
      a[j][j] += lambda;
    }
    for (int col = 0; col < d; col++) {
      int pivot = col;
      for (int r = col + 1; r < d; r++) {
        if (Math.abs(a[r][col]) > Math.abs(a[pivot][col])) {
          pivot = r;
        }
      }
      double[] swap = a[col];
      a[col] = a[pivot];
      a[pivot] = swap;
      for (int r = 0; r < d; r++) {
        if (r != col) {
          double factor = a[r][col] / a[col][col];
          for (int k = col; k <= d; k++) {
            a[r][k] -= factor * a[col][k];
          }
        }
      }
    }
    double[] w = new double[d];
    for (int j = 0; j < d; j++) {
      w[j] = a[j][d] / a[j][j];
    }
    return w;
  }

  /**
   * An orthogonal design: n = 8 rows, column j = s_j h_j with h_j distinct +-1 Walsh columns, so
   * X'X / n = diag(s_j^2). Labels fixed.
   */
  static ErmDataset orthogonalDesign(double[] scales) {
    int n = 8;
    int d = scales.length;
    double[][] x = new double[n][d];
    double[] y = {3.0, -1.0, 2.0, 0.5, -2.5, 1.5, 0.25, -0.75};
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < d; j++) {
        // Walsh function j+1 on 3 bits: parity of popcount(i & (j + 1)); orthogonal for distinct j.
        x[i][j] = scales[j] * (Integer.bitCount(i & (j + 1)) % 2 == 0 ? 1 : -1);
      }
    }
    return ErmDataset.of(x, y, FeatureBounds.of(scales));
  }

  static double maxAbsDifference(double[] a, double[] b) {
    double max = 0;
    for (int j = 0; j < a.length; j++) {
      max = Math.max(max, Math.abs(a[j] - b[j]));
    }
    return max;
  }
}
