package org.dpstream.core.loss;

/**
 * The inverse link zeta of a generalised linear model, E[y | x] = zeta(x' theta) (Han et al.,
 * Section 4: rewards r_t = zeta(X_t' theta*) + noise), together with its matching loss l(s, y),
 * the convex function of the margin s = x' theta with dl/ds = zeta(s) - y, so that the per-sample
 * gradient is (zeta(x' theta) - y) x. See {@link CanonicalLink} for the identity and logistic
 * links.
 *
 * <p>Contract: zeta is non-decreasing and Lipschitz, 0 &lt;= zeta' &lt;= {@link #derivativeBound()}.
 * Implementations are immutable and allocation-free.
 */
public interface InverseLink {

  /** zeta(s), the mean response at margin s. */
  double mean(double s);

  /** zeta'(s). */
  double derivative(double s);

  /** k_zeta = sup_s zeta'(s): the GLM loss is k_zeta X^2 smooth. */
  double derivativeBound();

  /**
   * sup |zeta(s) - y| over |s| &lt;= marginBound and admissible labels with |y| &lt;= labelBound:
   * the largest residual, so the gradient's dual norm is at most this times X.
   */
  double residualBound(double marginBound, double labelBound);

  /** l(s, y), the matching loss: convex in s with dl/ds = zeta(s) - y. */
  double matchingLoss(double s, double y);

  /**
   * Checks that y is an admissible label for this link.
   *
   * @throws IllegalArgumentException otherwise, with a message naming the admissible range
   */
  void requireLabel(double y);
}
