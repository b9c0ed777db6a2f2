package org.dpstream.bandit.ucb;

import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.decomposition.TriangularSolver_DDRM;
import org.ejml.dense.row.factory.DecompositionFactory_DDRM;
import org.ejml.interfaces.decomposition.CholeskyDecomposition_F64;
import org.ejml.interfaces.decomposition.EigenDecomposition_F64;

/**
 * One arm's ridge estimate from its released statistics: the Cholesky factor C of V = noisy Gram +
 * shift I (V = C C'), theta~ = V^-1 u, and the UCB x' theta~ + beta ||x||_{V^-1} with ||x||_{V^-1} =
 * ||C^-1 x||_2 (one triangular solve per decision).
 *
 * <p>The shift makes V positive definite with probability 1 - alpha/2 (see {@link DpUcbConfidence}).
 * On the remaining event V is repaired by adding (lambda - lambda_min(V)) I, so lambda_min becomes the
 * ridge lambda: post-processing of the release, so privacy is unaffected; {@link #repaired()} says so.
 */
final class ArmEstimate {

  private final int dimension;
  private final DMatrixRMaj shiftedGram;
  private final DMatrixRMaj cholesky;
  private final double[] theta;
  private final double[] solveScratch;
  private final CholeskyDecomposition_F64<DMatrixRMaj> decomposition;
  private boolean repaired;

  ArmEstimate(int dimension) {
    this.dimension = dimension;
    this.shiftedGram = new DMatrixRMaj(dimension, dimension);
    this.cholesky = new DMatrixRMaj(dimension, dimension);
    this.theta = new double[dimension];
    this.solveScratch = new double[dimension];
    this.decomposition = DecompositionFactory_DDRM.chol(dimension, true);
  }

  /** Refits from a released Gram matrix (left unchanged) and reward vector. */
  void fit(DMatrixRMaj noisyGram, double[] rewardVector, double shift, double ridge) {
    shiftedGram.setTo(noisyGram);
    addToDiagonal(shiftedGram, shift);
    repaired = !factor();
    if (repaired) {
      addToDiagonal(shiftedGram, ridge - smallestEigenvalue(shiftedGram));
      if (!factor()) {
        throw new IllegalStateException("the repaired Gram matrix is still not positive definite");
      }
    }
    System.arraycopy(rewardVector, 0, theta, 0, dimension);
    TriangularSolver_DDRM.solveL(cholesky.data, theta, dimension);
    TriangularSolver_DDRM.solveTranL(cholesky.data, theta, dimension);
  }

  private boolean factor() {
    DMatrixRMaj copy = shiftedGram.copy(); // the decomposition may work in place
    if (!decomposition.decompose(copy)) {
      return false;
    }
    decomposition.getT(cholesky);
    for (int i = 0; i < dimension; i++) {
      double pivot = cholesky.unsafe_get(i, i);
      if (!(pivot > 0) || !Double.isFinite(pivot)) {
        return false;
      }
    }
    return true;
  }

  private static double smallestEigenvalue(DMatrixRMaj symmetric) {
    EigenDecomposition_F64<DMatrixRMaj> eigen = DecompositionFactory_DDRM.eig(symmetric.numRows, false, true);
    if (!eigen.decompose(symmetric.copy())) {
      throw new IllegalStateException("eigen-decomposition of the Gram matrix failed");
    }
    double smallest = Double.POSITIVE_INFINITY;
    for (int i = 0; i < symmetric.numRows; i++) {
      smallest = Math.min(smallest, eigen.getEigenvalue(i).real);
    }
    return smallest;
  }

  private static void addToDiagonal(DMatrixRMaj matrix, double value) {
    for (int i = 0; i < matrix.numRows; i++) {
      matrix.unsafe_set(i, i, matrix.unsafe_get(i, i) + value);
    }
  }

  /** x' theta~ + beta sqrt(x' V^-1 x). Reads the state only. */
  double upperConfidenceBound(double[] x, double beta) {
    double estimate = 0;
    for (int i = 0; i < dimension; i++) {
      estimate += x[i] * theta[i];
      solveScratch[i] = x[i];
    }
    TriangularSolver_DDRM.solveL(cholesky.data, solveScratch, dimension);
    double squaredNorm = 0;
    for (double z : solveScratch) {
      squaredNorm += z * z;
    }
    return estimate + beta * Math.sqrt(squaredNorm);
  }

  boolean repaired() {
    return repaired;
  }

  /** A copy of V = noisy Gram + shift I (after any repair). */
  DMatrixRMaj shiftedGram() {
    return shiftedGram.copy();
  }

  double[] theta() {
    return theta.clone();
  }
}
