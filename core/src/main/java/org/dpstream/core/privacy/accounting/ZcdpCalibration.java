package org.dpstream.core.privacy.accounting;

/**
 * A calibration accounted in zCDP: besides the (epsilon, delta) map it exposes the rho behind it, so a
 * mechanism built from several (adaptive clipping: a block's prefix sums plus the quantile's histogram)
 * can add the rhos (zCDP composition) before converting once.
 */
public interface ZcdpCalibration extends PrivacyCalibration {

  /** rho of the releases of steps 1..t of one epoch, rounded up; non-decreasing in t. */
  double rhoAfter(long step);

  /** The conversion {@link #spentAfter} applies to {@link #rhoAfter}. */
  ZcdpConversion conversion();
}
