package org.dpstream.core.erm;

import java.util.Locale;

/**
 * A separable convex regulariser psi(w) = sum_j psi_j(w_j) with
 * psi_j(v) = lambda_1 |v| + (lambda_2 / 2) v^2, and its proximal operator.
 *
 * <ul>
 *   <li>{@link #none()}: psi = 0;
 *   <li>{@link #l2(double)}: (lambda / 2) ||w||_2^2. Note the factor 1/2: the DP-CD paper's logistic
 *       experiments use lambda ||w||^2 without it, which is {@code l2(2 lambda)};
 *   <li>{@link #l1(double)}: lambda ||w||_1 (the paper's LASSO);
 *   <li>{@link #elasticNet(double, double)}: lambda (a ||w||_1 + (1 - a)/2 ||w||_2^2), glmnet's
 *       parametrisation (not in the papers; its prox is worked out here).
 * </ul>
 *
 * <p>Prox: prox_{gamma psi_j}(u) = argmin_v (v - u)^2 / 2 + gamma psi_j(v)
 * = sign(u) max(|u| - gamma lambda_1, 0) / (1 + gamma lambda_2). The regulariser is data-independent, so it
 * adds no sensitivity to any private algorithm. Immutable and allocation-free.
 */
public final class Regularizer {

  /** The regulariser families, for configuration by name. */
  public enum Kind { NONE, L2, L1, ELASTIC_NET }

  private static final Regularizer NONE = new Regularizer(Kind.NONE, 0, 0, 0);

  private final Kind kind;
  private final double lambda;
  private final double l1Weight;
  private final double l2Weight;

  private Regularizer(Kind kind, double lambda, double l1Weight, double l2Weight) {
    this.kind = kind;
    this.lambda = lambda;
    this.l1Weight = l1Weight;
    this.l2Weight = l2Weight;
  }

  public static Regularizer none() {
    return NONE;
  }

  /** (lambda / 2) ||w||_2^2, lambda &gt;= 0. */
  public static Regularizer l2(double lambda) {
    return new Regularizer(Kind.L2, requireLambda(lambda), 0, lambda);
  }

  /** lambda ||w||_1, lambda &gt;= 0. */
  public static Regularizer l1(double lambda) {
    return new Regularizer(Kind.L1, requireLambda(lambda), lambda, 0);
  }

  /** lambda (a ||w||_1 + (1 - a)/2 ||w||_2^2), lambda &gt;= 0 and the l1 ratio a in [0, 1]. */
  public static Regularizer elasticNet(double lambda, double l1Ratio) {
    requireLambda(lambda);
    if (!(l1Ratio >= 0 && l1Ratio <= 1)) {
      throw new IllegalArgumentException("l1 ratio must be in [0, 1], got " + l1Ratio);
    }
    return new Regularizer(Kind.ELASTIC_NET, lambda, lambda * l1Ratio, lambda * (1 - l1Ratio));
  }

  /**
   * By kind, for configuration: {@code l1Ratio} is read only for {@link Kind#ELASTIC_NET} and
   * {@code lambda} is ignored for {@link Kind#NONE}.
   */
  public static Regularizer of(Kind kind, double lambda, double l1Ratio) {
    return switch (kind) {
      case NONE -> none();
      case L2 -> l2(lambda);
      case L1 -> l1(lambda);
      case ELASTIC_NET -> elasticNet(lambda, l1Ratio);
    };
  }

  public Kind kind() {
    return kind;
  }

  /** The overall weight lambda (0 for none). */
  public double lambda() {
    return lambda;
  }

  /** lambda_1, the weight of |v|. */
  public double l1Weight() {
    return l1Weight;
  }

  /** lambda_2, the weight of v^2 / 2; also the regulariser's strong-convexity modulus. */
  public double l2Weight() {
    return l2Weight;
  }

  /** psi_j(v). */
  public double valueAt(double v) {
    return l1Weight * Math.abs(v) + 0.5 * l2Weight * v * v;
  }

  /** psi(w) = sum_j psi_j(w_j). */
  public double value(double[] w) {
    double sum = 0;
    for (double v : w) {
      sum += valueAt(v);
    }
    return sum;
  }

  /**
   * prox_{step psi_j}(u) = sign(u) max(|u| - step lambda_1, 0) / (1 + step lambda_2).
   *
   * @param step gamma &gt;= 0
   */
  public double prox(double u, double step) {
    double shrunk = Math.abs(u) - step * l1Weight;
    if (shrunk <= 0) {
      return 0.0;
    }
    return Math.copySign(shrunk, u) / (1 + step * l2Weight);
  }

  private static double requireLambda(double lambda) {
    if (!(lambda >= 0) || !Double.isFinite(lambda)) {
      throw new IllegalArgumentException("lambda must be finite and >= 0, got " + lambda);
    }
    return lambda;
  }

  @Override
  public String toString() {
    return switch (kind) {
      case NONE -> "none";
      case L2 -> String.format(Locale.ROOT, "l2(%g)", lambda);
      case L1 -> String.format(Locale.ROOT, "l1(%g)", lambda);
      case ELASTIC_NET -> String.format(Locale.ROOT, "elastic-net(l1=%g, l2=%g)", l1Weight, l2Weight);
    };
  }
}
