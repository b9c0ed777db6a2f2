package org.dpstream.core.loss;

/**
 * Public bounds on one sample (x, y): ||x||_q &lt;= {@code featureDualNorm} and |y| &lt;= {@code
 * labelBound}, with q the dual exponent of the constraint set's p (the norm gradients are measured
 * in; Han et al., Assumptions 2.2 and 2.4).
 *
 * <p><b>Privacy.</b> These bounds feed the Lipschitz and smoothness constants and hence the noise
 * scale, so they must come from declared, public ranges (a schema, a normalisation contract,
 * domain knowledge) and never from the private data: a bound computed from the stream, such as
 * its largest observed norm, changes when one sample changes and the calibration built on it is
 * no longer differentially private. Samples violating the declared bounds must be clipped or
 * rejected before they reach a loss; the constants are not valid for them.
 *
 * @param featureDualNorm bound X on ||x||_q, finite and &gt;= 0
 * @param labelBound bound Y on |y|, finite and &gt;= 0
 */
public record DataBounds(double featureDualNorm, double labelBound) {

  /** @throws IllegalArgumentException if a bound is negative, NaN or infinite */
  public DataBounds {
    requireFiniteNonNegative(featureDualNorm, "featureDualNorm");
    requireFiniteNonNegative(labelBound, "labelBound");
  }

  private static void requireFiniteNonNegative(double value, String name) {
    if (!(value >= 0 && value <= Double.MAX_VALUE)) {
      throw new IllegalArgumentException(name + " must be finite and >= 0, got " + value);
    }
  }
}
