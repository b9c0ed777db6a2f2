package org.dpstream.core.privacy.factorization;

import org.dpstream.core.privacy.accounting.Rounding;
import org.dpstream.core.privacy.accounting.SensitivityStructure;

/**
 * A BLT strategy C applied to integer leaves with integer arithmetic only: the C side of the exact BLT
 * ({@link ExactBltPrefixSum}). Its rows R(x) are a deterministic function of the leaves, within a proven
 * distance of the real C x, so neighbours' rows differ by an integer vector whose norm is bounded.
 *
 * <p>The decays and scales are fixed-point numbers: theta'_i = T_i / 2^f and omega'_i = W_i / 2^g with
 * integers T_i, W_i. The strategy that is applied, and accounted, is the BLT of these exact values
 * ({@link #strategy()}), not the double parameters it was made from. Per coordinate, with buffers s_i (integers,
 * 0 at the epoch's start):
 *
 * <pre>
 *   R_t   = x_t + round(sum_i W_i s_i / 2^g)          (the row: C x_t up to rounding)
 *   s_i  &lt;- x_t + round(T_i s_i / 2^f)                 (s_i = sum_{j &lt;= t} theta'^(t-j) x_j up to rounding)
 * </pre>
 *
 * round(v) = floor(v + 1/2), computed as an arithmetic shift, so R_t - (C x)_t is a sum of rounding errors.
 *
 * <p><b>Rounding slack.</b> Let x, x' differ only in leaf i, by delta. The buffers agree before i; at i they differ
 * by delta exactly; later D_i(t) = theta'_i D_i(t - 1) + e_t with |e_t| &lt; 1 (two roundings of values whose
 * difference is theta' D). So for t &gt; i, R_t - R'_t = c_(t-i) delta + E_t with |E_t| &lt; 1 + sum_i omega'_i (1 +
 * theta'_i + ... ) &lt;= 1 + sum_i omega'_i / (1 - theta'_i) = {@link #roundingSlack()} per coordinate, and R_i - R'_i =
 * delta. Over rows 1..t, ||R(x) - R(x')||_2 &lt;= ||delta||_2 sqrt(F(t)) + slack sqrt(d (t - 1)) (Minkowski).
 *
 * <p><b>No overflow.</b> Leaves are clamped to [-X, X] (clamping is 1-Lipschitz per coordinate, so it never widens
 * a difference). Then |s_i| &lt;= S_i = (X + 1/2) / (1 - theta'_i) by induction (theta' S_i + 1/2 + X = S_i), and
 * f and g are chosen so that 2^f S_i and 2^g sum_i omega'_i S_i stay below 2^61: every product and sum fits in a
 * {@code long}. A restored buffer beyond S_i is refused as corrupt.
 *
 * <p>Why by hand: no maintained Java library applies a linear recurrence in exact fixed point; the arithmetic is
 * a dozen lines and {@code FixedPointBltTest} checks it against {@link java.math.BigInteger}. Immutable.
 */
public final class FixedPointBlt {

  /** Fractional bits are at most this: a double's mantissa holds the quantised values exactly. */
  static final int MAX_FRACTION_BITS = 52;
  /** Products and sums stay below 2^61, two bits below the range of a long. */
  private static final double PRODUCT_LIMIT = 0x1p61;
  /**
   * Quantisation may move 1 - theta_i and omega_i by at most this relative amount; a horizon whose decays are
   * too close to 1 for the leaf bound is refused instead (the caller takes a coarser lattice).
   */
  static final double MAX_RELATIVE_QUANTISATION = 0x1p-6;

  private final BltStrategy strategy;
  private final int decayBits;
  private final int scaleBits;
  private final long[] decayUnits;
  private final long[] scaleUnits;
  private final long leafBound;
  private final long[] bufferBounds;
  private final double roundingSlack;

  private FixedPointBlt(BltStrategy strategy, int decayBits, int scaleBits, long[] decayUnits, long[] scaleUnits,
      long leafBound, long[] bufferBounds, double roundingSlack) {
    this.strategy = strategy;
    this.decayBits = decayBits;
    this.scaleBits = scaleBits;
    this.decayUnits = decayUnits;
    this.scaleUnits = scaleUnits;
    this.leafBound = leafBound;
    this.bufferBounds = bufferBounds;
    this.roundingSlack = roundingSlack;
  }

  /**
   * The fixed-point form of {@code real} for leaves clamped to [-X, X]: the most fractional bits whose products
   * cannot overflow.
   *
   * @throws IllegalArgumentException if no fixed point keeps the parameters within {@link
   *     #MAX_RELATIVE_QUANTISATION} (decays too close to 1 for X: use a smaller X, i.e. a coarser lattice)
   */
  public static FixedPointBlt of(BltStrategy real, long leafBound) {
    if (leafBound < 1 || leafBound > (1L << 52)) {
      throw new IllegalArgumentException("leaf bound must be in [1, 2^52], got " + leafBound);
    }
    double[] decays = real.decays();
    double[] scales = real.scales();
    for (int f = MAX_FRACTION_BITS; f > 0; f--) {
      long[] decayUnits = quantise(decays, f);
      double[] bounds = bufferBounds(decayUnits, f, leafBound);
      if (bounds == null || !(Math.scalb(max(bounds), f) < PRODUCT_LIMIT)) {
        continue;
      }
      if (!closeGaps(decays, decayUnits, f)) {
        break; // fewer bits only quantise more coarsely
      }
      for (int g = MAX_FRACTION_BITS; g > 0; g--) {
        long[] scaleUnits = quantise(scales, g);
        if (!(weightedBufferSum(scaleUnits, bounds) < PRODUCT_LIMIT)) {
          continue;
        }
        if (!close(scales, scaleUnits, g)) {
          break;
        }
        return build(decayUnits, f, scaleUnits, g, leafBound, bounds);
      }
      break;
    }
    throw new IllegalArgumentException("the BLT " + real + " has no fixed point within 2^-6 of its parameters for"
        + " leaves up to " + leafBound + " units: use a coarser lattice");
  }

  private static FixedPointBlt build(long[] decayUnits, int f, long[] scaleUnits, int g, long leafBound,
      double[] bounds) {
    int m = decayUnits.length;
    double[] decays = new double[m];
    double[] scales = new double[m];
    long[] integerBounds = new long[m];
    double slack = 1;
    for (int i = 0; i < m; i++) {
      decays[i] = Math.scalb((double) decayUnits[i], -f); // exact: fewer than 53 significant bits
      scales[i] = Math.scalb((double) scaleUnits[i], -g);
      integerBounds[i] = (long) Math.floor(bounds[i]);
      // omega' / (1 - theta'), rounded up: 1 - theta' is exact (T_i < 2^f, Sterbenz or exact scaling)
      slack = Rounding.sumUp(slack, Rounding.quotientUp(scales[i], 1 - decays[i]));
    }
    BltStrategy exact = BltStrategy.of(decays, scales); // checks admissibility of the quantised values
    return new FixedPointBlt(exact, f, g, decayUnits, scaleUnits, leafBound, integerBounds, slack);
  }

  private static long[] quantise(double[] values, int bits) {
    long[] units = new long[values.length];
    for (int i = 0; i < values.length; i++) {
      units[i] = Math.round(Math.scalb(values[i], bits));
    }
    return units;
  }

  /** S_i = (X + 1/2) / (1 - theta'_i), rounded up; null if a quantised decay is not in (0, 1). */
  private static double[] bufferBounds(long[] decayUnits, int f, long leafBound) {
    long one = 1L << f;
    double[] bounds = new double[decayUnits.length];
    for (int i = 0; i < decayUnits.length; i++) {
      if (decayUnits[i] <= 0 || decayUnits[i] >= one) {
        return null;
      }
      double gap = Math.scalb((double) (one - decayUnits[i]), -f); // exact
      bounds[i] = Rounding.quotientUp(Rounding.sumUp(leafBound, 0.5), gap);
    }
    return bounds;
  }

  /** sum_i W_i S_i, rounded up: the largest |sum_i W_i s_i| (W_i = omega'_i 2^g). */
  private static double weightedBufferSum(long[] scaleUnits, double[] bounds) {
    double sum = 0;
    for (int i = 0; i < scaleUnits.length; i++) {
      sum = Rounding.sumUp(sum, Rounding.productUp(scaleUnits[i], bounds[i]));
    }
    return sum;
  }

  private static boolean closeGaps(double[] decays, long[] decayUnits, int f) {
    for (int i = 0; i < decays.length; i++) {
      double gap = 1 - decays[i];
      double quantisedGap = 1 - Math.scalb((double) decayUnits[i], -f);
      if (!(Math.abs(quantisedGap - gap) <= MAX_RELATIVE_QUANTISATION * gap)) {
        return false;
      }
    }
    return true;
  }

  private static boolean close(double[] scales, long[] scaleUnits, int g) {
    for (int i = 0; i < scales.length; i++) {
      if (!(Math.abs(Math.scalb((double) scaleUnits[i], -g) - scales[i]) <= MAX_RELATIVE_QUANTISATION * scales[i])) {
        return false;
      }
    }
    return true;
  }

  private static double max(double[] values) {
    double max = 0;
    for (double v : values) {
      max = Math.max(max, v);
    }
    return max;
  }

  /** The BLT of the exact quantised parameters: what is applied, accounted and inverted. */
  public BltStrategy strategy() {
    return strategy;
  }

  public int buffers() {
    return decayUnits.length;
  }

  /** X: leaves are clamped to [-X, X] units. */
  public long leafBound() {
    return leafBound;
  }

  /**
   * An upper bound on the per-coordinate distance between the two neighbours' rows beyond c_(t-i) delta:
   * 1 + sum_i omega'_i / (1 - theta'_i), rounded up.
   */
  public double roundingSlack() {
    return roundingSlack;
  }

  /**
   * What a calibration of this mechanism must price: for steps t, upper bounds on ||R(x) - R(x')||_2^2 over rows 1..t
   * in units of S^2 (S the leaves' l2 sensitivity in real units, lattice rounding included), that is
   * F_eff(t) = (sqrt(F(t)) + (gamma kappa sqrt(d) / S) sqrt(t - 1))^2 with F the quantised strategy's rigorous
   * column-norm bounds, kappa {@link #roundingSlack()} and gamma the lattice spacing; every operation rounded up.
   */
  public SensitivityStructure.SquaredColumnNorms shiftNorms(double latticeSpacing, int dimension,
      double l2Sensitivity) {
    if (!(latticeSpacing > 0) || dimension <= 0 || !(l2Sensitivity > 0)) {
      throw new IllegalArgumentException("need a positive spacing, dimension and sensitivity: " + latticeSpacing + ", "
          + dimension + ", " + l2Sensitivity);
    }
    // (gamma kappa / S) sqrt(d): the rounding's share of the rows' l2 shift per sqrt(row), rounded up.
    double slackPerRow = Rounding.productUp(
        Rounding.quotientUp(Rounding.productUp(latticeSpacing, roundingSlack), l2Sensitivity),
        Rounding.sqrtUp(dimension));
    return steps -> {
      double[] columnNorms = strategy.squaredColumnNormUpperBounds(steps);
      double[] widened = new double[columnNorms.length];
      for (int s = 0; s < steps.length; s++) {
        double root = Rounding.sumUp(Rounding.sqrtUp(columnNorms[s]),
            Rounding.productUp(slackPerRow, Rounding.sqrtUp(steps[s] - 1)));
        widened[s] = Rounding.productUp(root, root);
      }
      return widened;
    };
  }

  /** f, the fractional bits of the decays. */
  int decayBits() {
    return decayBits;
  }

  /** g, the fractional bits of the scales. */
  int scaleBits() {
    return scaleBits;
  }

  /** Whether a buffer value of coordinate buffer i could have been produced: |s| &lt;= S_i. */
  boolean admissibleBuffer(int buffer, long value) {
    return Math.abs(value) <= bufferBounds[buffer];
  }

  /** Clamps a lattice leaf to [-X, X]. */
  long clamp(long leaf) {
    return Math.max(-leafBound, Math.min(leafBound, leaf));
  }

  /**
   * One step: the row R_t of d clamped leaves into {@code row}, the buffers after it into {@code next} (buffer i of
   * coordinate j at j m + i). {@code buffers} is null at an epoch's first step (all zero). Cannot overflow for
   * clamped leaves and admissible buffers.
   */
  void step(long[] clampedLeaf, long[] buffers, long[] next, long[] row) {
    int m = decayUnits.length;
    long halfScale = 1L << (scaleBits - 1);
    long halfDecay = 1L << (decayBits - 1);
    for (int j = 0; j < clampedLeaf.length; j++) {
      long x = clampedLeaf[j];
      int offset = j * m;
      if (buffers == null) {
        row[j] = x;
        for (int i = 0; i < m; i++) {
          next[offset + i] = x;
        }
        continue;
      }
      long weighted = halfScale;
      for (int i = 0; i < m; i++) {
        long s = buffers[offset + i];
        weighted += scaleUnits[i] * s;
        next[offset + i] = x + ((decayUnits[i] * s + halfDecay) >> decayBits);
      }
      row[j] = x + (weighted >> scaleBits);
    }
  }

  @Override
  public String toString() {
    return "FixedPointBlt[f=" + decayBits + ", g=" + scaleBits + ", X=" + leafBound + ", slack=" + roundingSlack + ", "
        + strategy + "]";
  }
}
