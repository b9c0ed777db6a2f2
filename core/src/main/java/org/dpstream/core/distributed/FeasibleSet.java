package org.dpstream.core.distributed;

import java.util.Arrays;

/**
 * A closed convex set C whose indicator joins the regulariser: h = psi + I_C. Three shapes: all of R^m,
 * a box [lo, hi]^m and a Euclidean ball of radius R around 0.
 *
 * <p>Why projecting the unconstrained minimiser is exact in {@link DualAveragingProx}: the objective
 * &lt;z, x&gt; + lambda_1 ||x||_1 + (c/2)||x||^2 is separable, so on a box each coordinate's 1-D convex
 * minimiser over an interval is the clip of the unconstrained one; on a ball the KKT conditions give
 * x = -S(z, lambda_1) / (c + nu) with S the soft threshold and nu &gt;= 0 the multiplier, i.e. a point
 * on the fixed ray -S, which is the radial projection of the unconstrained minimiser.
 *
 * <p>Immutable.
 */
public final class FeasibleSet {

  /** The shape, for configuration by name. */
  public enum Shape { WHOLE_SPACE, BOX, BALL }

  private static final FeasibleSet WHOLE = new FeasibleSet(Shape.WHOLE_SPACE, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY);

  private final Shape shape;
  private final double low;
  private final double high;

  private FeasibleSet(Shape shape, double low, double high) {
    this.shape = shape;
    this.low = low;
    this.high = high;
  }

  /** R^m: no constraint. */
  public static FeasibleSet wholeSpace() {
    return WHOLE;
  }

  /** [low, high] in every coordinate; requires low &lt;= 0 &lt;= high so that the iteration starts feasible. */
  public static FeasibleSet box(double low, double high) {
    if (!(low <= 0 && 0 <= high) || Double.isNaN(low) || Double.isNaN(high)) {
      throw new IllegalArgumentException("a box needs low <= 0 <= high, got [" + low + ", " + high + "]");
    }
    return new FeasibleSet(Shape.BOX, low, high);
  }

  /** {x : ||x||_2 &lt;= radius}, radius &gt; 0. */
  public static FeasibleSet ball(double radius) {
    if (!(radius > 0) || Double.isInfinite(radius)) {
      throw new IllegalArgumentException("a ball needs a positive finite radius, got " + radius);
    }
    return new FeasibleSet(Shape.BALL, 0, radius);
  }

  public Shape shape() {
    return shape;
  }

  /**
   * Maps a minimiser of the separable unconstrained problem to the constrained one (see the class comment),
   * in place.
   */
  void restrict(double[] x) {
    switch (shape) {
      case WHOLE_SPACE -> { }
      case BOX -> {
        for (int j = 0; j < x.length; j++) {
          x[j] = Math.max(low, Math.min(high, x[j]));
        }
      }
      case BALL -> {
        double norm = Math.sqrt(Arrays.stream(x).map(v -> v * v).sum());
        if (norm > high) {
          double scale = high / norm;
          for (int j = 0; j < x.length; j++) {
            x[j] *= scale;
          }
        }
      }
    }
  }

  /**
   * The direction of the unconstrained minimiser as the limit of the ball case with curvature 0: on a ball
   * with c = 0 the minimiser is R S / ||S||, which {@link DualAveragingProx} needs when gamma_t = 0 and h
   * has no l2 part.
   */
  boolean bounded() {
    return shape != Shape.WHOLE_SPACE;
  }

  double boxLow() {
    return low;
  }

  double boxHighOrRadius() {
    return high;
  }

  @Override
  public String toString() {
    return switch (shape) {
      case WHOLE_SPACE -> "R^m";
      case BOX -> "box[" + low + ", " + high + "]";
      case BALL -> "ball(" + high + ")";
    };
  }
}
