package org.dpstream.bandit.linear;

import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.factory.LinearSolverFactory_DDRM;
import org.ejml.interfaces.linsol.LinearSolverDense;

/**
 * theta = (G + lambda I)^-1 b with EJML: Cholesky when the regularised matrix is positive definite (with
 * probability at least 1 - beta when lambda is {@link RidgeWeight}'s), else the SVD pseudo-inverse, so any
 * finite release gives a finite theta. Not thread-safe: it reuses its matrices.
 */
final class RidgeSolver {

  private final int dimension;
  private final DMatrixRMaj matrix;
  private final DMatrixRMaj rightHandSide;
  private final DMatrixRMaj solution;
  private final LinearSolverDense<DMatrixRMaj> cholesky;
  private final LinearSolverDense<DMatrixRMaj> pseudoInverse;

  RidgeSolver(int dimension) {
    this.dimension = dimension;
    this.matrix = new DMatrixRMaj(dimension, dimension);
    this.rightHandSide = new DMatrixRMaj(dimension, 1);
    this.solution = new DMatrixRMaj(dimension, 1);
    this.cholesky = LinearSolverFactory_DDRM.chol(dimension);
    this.pseudoInverse = LinearSolverFactory_DDRM.pseudoInverse(true);
  }

  /**
   * @param gram the d x d Gram matrix, row-major (not modified)
   * @param moment b (not modified)
   * @param theta receives the solution
   */
  void solve(double[] gram, double[] moment, double lambda, double[] theta) {
    System.arraycopy(gram, 0, matrix.data, 0, dimension * dimension);
    for (int i = 0; i < dimension; i++) {
      matrix.data[i * dimension + i] += lambda;
    }
    System.arraycopy(moment, 0, rightHandSide.data, 0, dimension);
    LinearSolverDense<DMatrixRMaj> solver = cholesky;
    if (!cholesky.setA(matrix)) {
      // setA may have overwritten the matrix with a partial factor: rebuild it for the SVD.
      System.arraycopy(gram, 0, matrix.data, 0, dimension * dimension);
      for (int i = 0; i < dimension; i++) {
        matrix.data[i * dimension + i] += lambda;
      }
      if (!pseudoInverse.setA(matrix)) {
        java.util.Arrays.fill(theta, 0);
        return;
      }
      solver = pseudoInverse;
    }
    solver.solve(rightHandSide, solution);
    for (int i = 0; i < dimension; i++) {
      double value = solution.data[i];
      theta[i] = Double.isFinite(value) ? value : 0;
    }
  }
}
