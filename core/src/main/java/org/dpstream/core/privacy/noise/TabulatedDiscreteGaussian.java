package org.dpstream.core.privacy.noise;

import java.math.BigInteger;
import java.util.Arrays;
import java.util.Objects;

/**
 * The discrete Gaussian N_Z(0, n^2) for n = M 2^B (B = {@value GaussianCellCdf#CELL_BITS}, M &gt;= 1), exact
 * and fast: 14 bits (rarely 64) for the cell, a uniform integer below M and a handful of bits per draw,
 * against some 17 random decisions for {@link DiscreteGaussian}'s rejection from the discrete Laplace.
 *
 * <p>The integers x &gt;= 0 are cut into cells of M: cell t holds tM, ..., tM + M - 1. A draw
 *
 * <ol>
 *   <li>picks cell t with probability proportional to w_t = exp(-(tM)^2 / (2 n^2)) = exp(-(t / 2^B)^2 / 2)
 *       (the largest weight in the cell, the same for every M): the inverse of the cumulative distribution
 *       F_t at a uniform u read lazily (14 bits when their interval lies inside one cell, else a 64-bit
 *       prefix), compared with certified bounds lo_t &lt;= 2^64 F_t &lt;= hi_t ({@link GaussianCellCdf}); if
 *       the prefix falls between the bounds of a boundary (probability about 2^-62 a draw), the comparison
 *       is settled exactly with more digits of both. Cells t &gt;= 7
 *       2^B (7 sigma, probability about 2.6e-12) come from an exact rejection sampler of the tail;</li>
 *   <li>takes c uniform in [0, M) and x = tM + c, kept with probability exp(-((tM + c)^2 - (tM)^2) / (2
 *       n^2)) = exp(-g), g = (c / M) (2tM + c) / (M 2^(2B+1)), by von Neumann's procedure with A_k =
 *       Bernoulli(g / k) drawn as three independent Bernoulli draws (g is below 2^-4 in the table: one
 *       round decides in nearly every draw); otherwise it starts again at 1;</li>
 *   <li>attaches a fair sign, rejecting -0 (so 0 counts once).</li>
 * </ol>
 *
 * <p>Steps 1-2 are rejection sampling from the proposal "cell t with probability w_t / sum w, then
 * uniform in the cell", whose density w_t dominates the target exp(-x^2 / (2 n^2)) on the cell (it
 * decreases in x &gt;= 0); the acceptance is the ratio, so x &gt;= 0 has probability proportional to
 * exp(-x^2 / (2 n^2)) exactly, and the sign makes it symmetric. Every decision is an integer comparison of
 * keyed bits with an exact number; no floating-point value decides an output.
 *
 * <p>Immutable and shareable: the table is built once per JVM (about 2,000 cells, integer arithmetic).
 */
public final class TabulatedDiscreteGaussian implements ExactIntegerSampler {

  /** 2^B: sigma is a multiple of this. */
  public static final long CELLS_PER_SIGMA = 1L << GaussianCellCdf.CELL_BITS;
  /** Largest cell width M: n = M 2^B stays below 2^53, as {@link DiscreteGaussian}'s range. */
  public static final long MAX_CELL_WIDTH = (1L << (53 - GaussianCellCdf.CELL_BITS)) - 1;

  private static final int CELLS = GaussianCellCdf.CELLS;
  /** Bits of the uniform read first: most of their 2^14 intervals lie inside one cell, which they then decide. */
  private static final int PREFIX_BITS = 14;
  private static final int REST_BITS = Long.SIZE - PREFIX_BITS;
  /** Marks a prefix whose interval is not inside one cell: the cell is found from a full 64-bit uniform. */
  private static final int OPEN = 1 << 30;
  /** Extra bits of the multiply-shift uniform beyond the bound's width: rejection below 2^-EXTRA. */
  private static final int UNIFORM_EXTRA_BITS = 10;
  /** Denominator 2^(2B+1) of g's second factor, over M. */
  private static final int SQUARE_SHIFT = 2 * GaussianCellCdf.CELL_BITS + 1;
  /** Bounds of 2^64 F_t as unsigned longs with the sign bit flipped, so signed comparison orders them. */
  private static final long[] LOW;
  private static final long[] HIGH;
  /**
   * PREFIX[V], for the interval [V, V + 1) 2^-14 of u: the cell t when the interval lies certainly inside cell t
   * (or the tail, t = CELLS); otherwise OPEN | t with t the first cell whose upper bound exceeds V 2^50 (every
   * earlier boundary lies certainly below u).
   */
  private static final int[] PREFIX;

  static {
    BigInteger[][] bounds = GaussianCellCdf.bounds(Long.SIZE);
    LOW = new long[CELLS];
    HIGH = new long[CELLS];
    for (int t = 0; t < CELLS; t++) {
      if (bounds[1][t].bitLength() > Long.SIZE) {
        throw new IllegalStateException("cell table: upper bound of F_" + t + " reaches 1");
      }
      LOW[t] = bounds[0][t].longValue() ^ Long.MIN_VALUE;
      HIGH[t] = bounds[1][t].longValue() ^ Long.MIN_VALUE;
    }
    PREFIX = new int[1 << PREFIX_BITS];
    int t = 0;
    for (int v = 0; v < PREFIX.length; v++) {
      long start = ((long) v << REST_BITS) ^ Long.MIN_VALUE;
      while (t < CELLS && HIGH[t] <= start) {
        t++;
      }
      boolean lastInterval = v == PREFIX.length - 1; // its end is 2^64, above every bound
      long end = ((long) (v + 1) << REST_BITS) ^ Long.MIN_VALUE;
      boolean inside = t == CELLS || (!lastInterval && end <= LOW[t]);
      PREFIX[v] = inside ? t : OPEN | t;
    }
  }

  private final long cellWidth;
  /** L: the within-cell uniform is floor(U M / 2^L) for U of L bits, ... */
  private final int uniformBits;
  /** ... rejected when U M mod 2^L is below 2^L mod M (Lemire's multiply-shift, exact). */
  private final long uniformThreshold;

  private TabulatedDiscreteGaussian(long cellWidth) {
    this.cellWidth = cellWidth;
    this.uniformBits = Math.min(Long.SIZE - 1, Long.SIZE - Long.numberOfLeadingZeros(cellWidth) + UNIFORM_EXTRA_BITS);
    this.uniformThreshold = Long.remainderUnsigned(1L << uniformBits, cellWidth);
  }

  /**
   * N_Z(0, (M 2^B)^2) for cell width M.
   *
   * @throws IllegalArgumentException unless 1 &lt;= M &lt;= {@link #MAX_CELL_WIDTH}
   */
  public static TabulatedDiscreteGaussian ofCellWidth(long cellWidth) {
    if (cellWidth < 1 || cellWidth > MAX_CELL_WIDTH) {
      throw new IllegalArgumentException("cell width must be in [1, 2^45), got " + cellWidth);
    }
    return new TabulatedDiscreteGaussian(cellWidth);
  }

  /** The smallest sigma &gt;= {@code sigma} this sampler takes: sigma rounded up to a multiple of 2^B. */
  public static TabulatedDiscreteGaussian ofSigmaAtLeast(long sigma) {
    if (sigma < 1) {
      throw new IllegalArgumentException("sigma must be at least 1, got " + sigma);
    }
    return ofCellWidth((sigma - 1) / CELLS_PER_SIGMA + 1);
  }

  /** n = M 2^B. */
  public long sigma() {
    return cellWidth * CELLS_PER_SIGMA;
  }

  public long cellWidth() {
    return cellWidth;
  }

  @Override
  public long sample(RandomBits bits) {
    Objects.requireNonNull(bits, "bits");
    long m = cellWidth;
    while (true) {
      int t = cell(bits);
      long c = m == 1 ? 0 : withinCell(bits);
      if (t < CELLS ? acceptInTable(bits, t, c) : acceptInTail(bits, t, c)) {
        long magnitude = Math.addExact(Math.multiplyExact(t, m), c);
        boolean negative = bits.nextBit();
        if (negative && magnitude == 0) {
          continue;
        }
        return negative ? -magnitude : magnitude;
      }
    }
  }

  /**
   * Step 1: the cell, by inversion of its certified cumulative distribution at a uniform u read lazily: 14
   * bits settle it when their interval lies inside one cell (about 95% of draws), else 50 more make a
   * 64-bit prefix compared with the bounds; {@link #CELLS} and above: the tail.
   */
  private static int cell(RandomBits bits) {
    long prefix = bits.nextBits(PREFIX_BITS);
    int entry = PREFIX[(int) prefix];
    if (entry < OPEN) {
      return entry < CELLS ? entry : tailCell(bits);
    }
    long word = (prefix << REST_BITS) | bits.nextBits(REST_BITS);
    long biased = word ^ Long.MIN_VALUE;
    int t = entry & ~OPEN;
    UniformDigits digits = null;
    while (t < CELLS) {
      if (biased >= HIGH[t]) {
        t++; // u >= 2^-64 word >= F_t
      } else if (biased < LOW[t]) {
        return t; // u < 2^-64 (word + 1) <= F_t
      } else {
        // lo_t <= word < hi_t: F_t may lie inside [word, word + 1) 2^-64, decide with more digits.
        if (digits == null) {
          digits = new UniformDigits(word, bits);
        }
        if (digits.isBelowCdf(t)) {
          return t;
        }
        t++;
      }
    }
    return tailCell(bits);
  }

  /** c uniform in [0, M): floor(U M / 2^L), U of L bits, rejected (rarely) where the map is not uniform. */
  long withinCell(RandomBits bits) {
    int width = uniformBits;
    long mask = (1L << width) - 1;
    while (true) {
      long u = bits.nextBits(width);
      long low = u * cellWidth;
      if ((low & mask) >= uniformThreshold) {
        long high = Math.multiplyHigh(u, cellWidth); // u, M < 2^63: the signed product is the unsigned one
        return (high << (Long.SIZE - width)) | (low >>> width);
      }
    }
  }

  /**
   * A cell t &gt;= N = {@link #CELLS} with probability proportional to w_t: t = N + j with j proposed from
   * the geometric law proportional to exp(-2Nj / 2^(2B+1)) = exp(-N / 2^(2B))^j and kept with probability
   * exp(-j^2 / 2^(2B+1)), their product being w_(N+j) / w_N.
   */
  static int tailCell(RandomBits bits) {
    while (true) {
      long j = 0;
      while (ExactBernoulli.expMinus(bits, CELLS, 1L << (SQUARE_SHIFT - 1))) {
        j++;
      }
      if (ExactBernoulli.expMinus(bits, Math.multiplyExact(j, j), 1L << SQUARE_SHIFT)) {
        return Math.toIntExact(CELLS + j);
      }
    }
  }

  /**
   * Step 2 in the table: Bernoulli(exp(-g)), g = (c / M) f, f = (2tM + c) / (M 2^(2B+1)) &lt; 2^-4, by
   * von Neumann: A_k = Bernoulli(f) Bernoulli(c / M) Bernoulli(1 / k) until the first A_k = 0; true iff that
   * k is odd. The small factor first, so a round usually costs one 10-bit comparison.
   */
  boolean acceptInTable(RandomBits bits, int t, long c) {
    if (c == 0) {
      return true;
    }
    long m = cellWidth;
    long numerator = 2 * t * m + c; // < 2^13 M < 2^58
    long denominator = m << SQUARE_SHIFT; // < 2^62
    long k = 1;
    while (bits.bernoulli(numerator, denominator) && bits.bernoulli(c, m) && bits.bernoulli(1, k)) {
      k++;
    }
    return (k & 1) == 1;
  }

  /** Step 2 in the tail (rare), where g may exceed 1: exp(-c (2tM + c) / (M^2 2^(2B+1))) in big integers. */
  boolean acceptInTail(RandomBits bits, int t, long c) {
    BigInteger m = BigInteger.valueOf(cellWidth);
    BigInteger cc = BigInteger.valueOf(c);
    BigInteger numerator = cc.multiply(BigInteger.valueOf(t).multiply(m).shiftLeft(1).add(cc));
    BigInteger denominator = m.multiply(m).shiftLeft(SQUARE_SHIFT);
    return ExactBernoulli.expMinus(bits, numerator, denominator);
  }

  /**
   * The digits of one uniform u in [0, 1) beyond its first 64 bits, drawn as needed, and the exact
   * comparison of u with F_t at growing precision: u &lt; F_t is decided once [V, V + 1) 2^-p (V the first
   * p bits) lies below the lower bound or at or above the upper bound of 2^p F_t.
   */
  static final class UniformDigits {
    private final RandomBits bits;
    private BigInteger prefix;
    private int precision = Long.SIZE;

    UniformDigits(long firstWord, RandomBits bits) {
      this.bits = bits;
      this.prefix = unsigned(firstWord);
    }

    /** Whether u &lt; F_t; the first 64 bits alone left it open. */
    boolean isBelowCdf(int t) {
      for (int p = 2 * Long.SIZE; ; p += Long.SIZE) {
        while (precision < p) {
          prefix = prefix.shiftLeft(Long.SIZE).or(unsigned(bits.nextWord()));
          precision += Long.SIZE;
        }
        BigInteger v = prefix.shiftRight(precision - p);
        BigInteger[][] bounds = GaussianCellCdf.bounds(p);
        if (v.add(BigInteger.ONE).compareTo(bounds[0][t]) <= 0) {
          return true;
        }
        if (v.compareTo(bounds[1][t]) >= 0) {
          return false;
        }
      }
    }

    private static BigInteger unsigned(long word) {
      BigInteger value = BigInteger.valueOf(word & Long.MAX_VALUE);
      return word < 0 ? value.setBit(Long.SIZE - 1) : value;
    }
  }

  /** The table's bounds for tests: [lo, hi] of 2^64 F_t as unsigned values. */
  static long[][] tableBounds() {
    long[] low = Arrays.copyOf(LOW, CELLS);
    long[] high = Arrays.copyOf(HIGH, CELLS);
    for (int t = 0; t < CELLS; t++) {
      low[t] ^= Long.MIN_VALUE;
      high[t] ^= Long.MIN_VALUE;
    }
    return new long[][] {low, high};
  }

  @Override
  public String toString() {
    return "tabulated-discrete-gaussian(sigma=" + sigma() + ")";
  }
}
