package org.dpstream.core.online;

import org.dpstream.core.privacy.accounting.Rounding;

/**
 * The lattice DP-POFW keeps its increment sums on under {@code noise: discrete}: each coordinate of a clipped
 * increment g is rounded to the nearest multiple of gamma = 2^exponent and clamped to [-B, B] units, B =
 * ceil(C / gamma) with C an upper bound on L + beta D (the l_inf bound of per-term clipping). The clamp makes
 * the bound hold by construction, whatever floating point did to g: one sample changes each unit sum by at
 * most {@link #sensitivity()} = 2B, an integer. gamma is chosen so that B &lt;= 2^bits with bits = min(30, 61 -
 * bitlength(horizon)): a sum of an epoch's units stays below 2^61 in magnitude, and a difference of two below
 * 2^62, so nothing can overflow a {@code long}.
 *
 * @param exponent of gamma = 2^exponent
 * @param bound B, the largest |units| of one coordinate of one increment
 */
record PofwScoreLattice(int exponent, long bound) {

  static final int MAX_BITS = 30;

  PofwScoreLattice {
    if (bound < 1 || bound > 1L << MAX_BITS) {
      throw new IllegalArgumentException("lattice bound must be in [1, 2^30], got " + bound);
    }
  }

  /** The lattice of a spec's clip bounds and horizon. */
  static PofwScoreLattice of(OnlineModelSpec spec) {
    double c = Rounding.up(spec.clipBounds().gradient() + spec.clipBounds().difference());
    if (!(c > 0 && c <= Double.MAX_VALUE)) {
      throw new IllegalArgumentException("gradientClip + differenceClip must be finite and > 0, got " + c);
    }
    int horizonBits = 64 - Long.numberOfLeadingZeros(spec.horizon());
    int bits = Math.min(MAX_BITS, 61 - horizonBits);
    if (bits < 8) {
      throw new IllegalArgumentException("horizon " + spec.horizon() + " is too long for noise: discrete at p = 1"
          + " (at most 2^53)");
    }
    // c < 2^(getExponent(c) + 1) = 2^bits gamma, so c / gamma (exact: a power-of-two scaling) is below 2^bits.
    int exponent = Math.getExponent(c) + 1 - bits;
    long bound = (long) Math.ceil(Math.scalb(c, -exponent));
    return new PofwScoreLattice(exponent, bound);
  }

  /** The units of one coordinate: round(g / gamma), clamped to [-B, B] (NaN gives 0). */
  long units(double g) {
    long rounded = Math.round(Math.scalb(g, -exponent));
    return Math.max(-bound, Math.min(bound, rounded));
  }

  /** 2B: the most one sample can change any unit sum (and so any vertex utility). */
  long sensitivity() {
    return 2 * bound;
  }
}
