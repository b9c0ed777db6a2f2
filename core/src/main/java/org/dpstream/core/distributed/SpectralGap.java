package org.dpstream.core.distributed;

import org.apache.commons.rng.UniformRandomProvider;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.factory.DecompositionFactory_DDRM;
import org.ejml.interfaces.decomposition.EigenDecomposition_F64;

/**
 * The gossip constant beta of Assumption 2(iii), eq. (4) of Liu, Johansson and Shi:
 * beta = sqrt( rho( E[W'W] - 11'/n ) ), rho the spectral radius; 1 - beta is the spectral gap that enters
 * every consensus bound (Lemma 4.5) and the condition iota &lt;= 1 - beta of Corollary 3.6.
 *
 * <p>E[W'W] is estimated by Monte Carlo over the sampler's rounds (it has no closed form for general
 * graphs); the matrix is symmetric, so its spectrum comes from EJML's symmetric eigen-decomposition.
 * Worked values for tests: one uniform edge of K_n gives beta = sqrt(1 - 1/(n - 1)),
 * two disjoint edges sqrt(1 - 2/(n - 1)).
 */
public final class SpectralGap {

  private SpectralGap() {}

  /**
   * Monte-Carlo beta over {@code samples} rounds drawn with {@code rng}. This is analysis, not mechanism:
   * any generator will do.
   */
  public static double estimateBeta(GossipSampler sampler, int samples, UniformRandomProvider rng) {
    if (samples < 1) {
      throw new IllegalArgumentException("samples must be >= 1: " + samples);
    }
    int n = sampler.graph().nodeCount();
    double[][] mean = new double[n][n];
    for (int s = 0; s < samples; s++) {
      double[][] w = sampler.sample(s + 1L, rng).toMatrix();
      addGram(w, mean, 1.0 / samples);
    }
    return betaOf(mean);
  }

  /** beta = sqrt(rho(M - 11'/n)) for a given second moment M = E[W'W] (symmetric, n x n). */
  public static double betaOf(double[][] secondMoment) {
    int n = secondMoment.length;
    DMatrixRMaj centred = new DMatrixRMaj(n, n);
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        // Symmetrise: Monte-Carlo sums are symmetric up to rounding, and the symmetric solver needs it exactly.
        centred.set(i, j, 0.5 * (secondMoment[i][j] + secondMoment[j][i]) - 1.0 / n);
      }
    }
    EigenDecomposition_F64<DMatrixRMaj> eigen = DecompositionFactory_DDRM.eig(n, false, true);
    if (!eigen.decompose(centred)) {
      throw new IllegalStateException("eigen-decomposition failed");
    }
    double radius = 0;
    for (int k = 0; k < n; k++) {
      radius = Math.max(radius, Math.abs(eigen.getEigenvalue(k).getReal()));
    }
    return Math.sqrt(radius);
  }

  /** acc += scale W'W. */
  private static void addGram(double[][] w, double[][] acc, double scale) {
    int n = w.length;
    for (int k = 0; k < n; k++) {
      double[] row = w[k];
      for (int i = 0; i < n; i++) {
        if (row[i] == 0) {
          continue;
        }
        double ri = row[i] * scale;
        for (int j = 0; j < n; j++) {
          acc[i][j] += ri * row[j];
        }
      }
    }
  }
}
