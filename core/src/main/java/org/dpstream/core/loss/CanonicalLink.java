package org.dpstream.core.loss;

/**
 * The canonical inverse links of the Gaussian and Bernoulli GLMs, the two the paper's bandit
 * experiments use (Han et al. 2022, section 5).
 */
public enum CanonicalLink implements InverseLink {

  /**
   * zeta(s) = s, matching loss (s - y)^2 / 2 (squared loss, linear regression). Labels: any finite
   * y. k_zeta = 1; residual |s - y| &lt;= S + Y.
   */
  IDENTITY {
    @Override
    public double mean(double s) {
      return s;
    }

    @Override
    public double derivative(double s) {
      return 1;
    }

    @Override
    public double derivativeBound() {
      return 1;
    }

    @Override
    public double residualBound(double marginBound, double labelBound) {
      return marginBound + labelBound;
    }

    @Override
    public double matchingLoss(double s, double y) {
      double residual = s - y;
      return residual * residual / 2;
    }

    @Override
    public void requireLabel(double y) {
      if (!Double.isFinite(y)) {
        throw new IllegalArgumentException("label y must be finite for the identity link, got " + y);
      }
    }
  },

  /**
   * zeta(s) = sigma(s) = 1 / (1 + e^-s), matching loss log(1 + e^s) - y s (logistic loss).
   *
   * <p>Labels: y in [0, 1]. The classification case is y in {0, 1}, where the loss equals log(1 +
   * exp(-z s)) for the {-1, +1} label z = 2y - 1; fractional labels (cross-entropy with soft
   * targets) are admitted because the bandit's synthetic sample (0, zeta(0)) has y = 1/2. Values outside [0, 1] make the loss unbounded below and are rejected.
   *
   * <p>k_zeta = sigma'(0) = 1/4. Residual: for |s| &lt;= S and y in [0, 1], sigma(s) - y &lt;=
   * sigma(S) and y - sigma(s) &lt;= 1 - sigma(-S) = sigma(S), so |sigma(s) - y| &lt;= sigma(S) &lt;
   * 1, whatever the label bound Y (labels are confined to [0, 1] anyway).
   *
   * <p>Numerics: sigma, sigma' and the loss are evaluated through e^-|s| only, so nothing
   * overflows; the loss is written (1 - y) softplus(s) + y softplus(-s), which avoids the
   * cancellation in softplus(s) - y s for large s.
   */
  LOGISTIC {
    @Override
    public double mean(double s) {
      double decay = Math.exp(-Math.abs(s));
      return s >= 0 ? 1 / (1 + decay) : decay / (1 + decay);
    }

    @Override
    public double derivative(double s) {
      double decay = Math.exp(-Math.abs(s));
      double denominator = 1 + decay;
      return decay / (denominator * denominator);
    }

    @Override
    public double derivativeBound() {
      return 0.25;
    }

    @Override
    public double residualBound(double marginBound, double labelBound) {
      return mean(marginBound);
    }

    @Override
    public double matchingLoss(double s, double y) {
      return (1 - y) * softplus(s) + y * softplus(-s);
    }

    @Override
    public void requireLabel(double y) {
      if (!(y >= 0 && y <= 1)) {
        throw new IllegalArgumentException(
            "label y must be in [0, 1] for the logistic link ({0, 1} for classification), got " + y);
      }
    }
  };

  /** log(1 + e^s) = max(s, 0) + log(1 + e^-|s|), finite for every finite s. */
  private static double softplus(double s) {
    return Math.max(s, 0) + Math.log1p(Math.exp(-Math.abs(s)));
  }
}
