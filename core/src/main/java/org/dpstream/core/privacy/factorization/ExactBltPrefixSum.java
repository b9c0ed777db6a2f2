package org.dpstream.core.privacy.factorization;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Objects;
import org.dpstream.core.privacy.PrivatePrefixSums;
import org.dpstream.core.privacy.tree.Lattice;
import org.dpstream.core.privacy.tree.NodeNoise;

/**
 * The exact BLT: continual prefix sums through a buffered linear Toeplitz factorization whose correlated noise
 * comes from exact discrete Gaussians on the lattice. No floating-point value decides a unit of noise; the
 * only floating-point arithmetic is the post-processing B u of the integer releases u.
 *
 * <p>At step t of an epoch, with the leaf rounded to the lattice and clamped ({@link FixedPointBlt}):
 *
 * <pre>
 *   u_t = R_t(x) + z_t                 z_t ~ N_Z(0, n^2)^d from the keyed source at (epoch, t)
 *   w_t = u_t - sum_i omega'_i b_i,  b_i &lt;- theta'_i b_i + w_t    (w = C^{-1} u, in doubles)
 *   release_t = base + gamma sum_{s &lt;= t} w_s                       (= B u, B = A C^{-1})
 * </pre>
 *
 * R(x) is C x computed in integers ({@link FixedPointBlt}). The sequence u is the discrete Gaussian mechanism
 * applied step by step to R(x); the releases are a deterministic function of u (post-processing), and they are
 * A x plus B z plus B applied to the rounding errors of R (a few units, far below the noise).
 *
 * <p>Privacy (docs/privacy-layer.md, "The exact BLT"): neighbours' leaves differ at one step i by an integer vector
 * of l2 norm at most Delta (the caller's clipping plus the lattice's rounding). Given the past releases the rows
 * are deterministic, and row t &gt;= i moves by c_(t-i) delta plus at most {@link FixedPointBlt#roundingSlack} per
 * coordinate, so rows 1..t move by at most Delta sqrt(F(t)) + slack sqrt(d (t - 1)) in l2 over all steps; each
 * row is a discrete Gaussian mechanism (Canonne, Kamath and Steinke 2020: rho = shift^2 / (2 n^2)), and zCDP
 * composes over adaptively chosen rows. The calibration ({@code online.ExactBltPlan}) prices that bound.
 *
 * <p>State: epoch, steps in the epoch, the base, the integer buffers of the C side (raw data) and the doubles of
 * the B side and the running sum (functions of the releases). Unlike the other mechanisms the B side cannot be
 * regenerated from the key (it depends on R(x)), so snapshots hold it; the future noise is drawn from the key, so
 * a restored mechanism continues bit for bit. Snapshots need the access control of the input. A step that throws
 * changes nothing. Not thread-safe.
 */
public final class ExactBltPrefixSum implements PrivatePrefixSums {

  /** The purpose of this mechanism's noise stream: no bits shared with the tree or the continuous BLT. */
  public static final String NOISE_PURPOSE = "blt-lattice";

  /**
   * First byte of a snapshot. Distinct from the other mechanisms' first bytes (1 to 3), so a snapshot of another
   * mechanism is refused rather than misread.
   */
  static final byte SNAPSHOT_VERSION = 0x41;

  private final FixedPointBlt encoder;
  private final Lattice lattice;
  private final NodeNoise noise;
  private final long horizon;
  private final int dimension;
  private final int buffers;
  private final double[] decays;
  private final double[] scales;

  private long epoch;
  private long stepsInEpoch;
  private final double[] base;
  private final double[] unitSum; // sum of w over the epoch, in lattice units
  private long[] encoderBuffers; // C side, coordinate j's buffer i at j m + i
  private double[] inverseBuffers; // B side, same layout

  // Scratch of the step being computed; swapped in or copied once nothing can fail.
  private final long[] leafUnits;
  private final long[] row;
  private long[] nextEncoderBuffers;
  private double[] nextInverseBuffers;
  private final double[] nextUnitSum;
  private final double[] nextBase;
  private final double[] nextRelease;

  private ExactBltPrefixSum(FixedPointBlt encoder, Lattice lattice, NodeNoise noise, long horizon, int dimension,
      long epoch, long stepsInEpoch, double[] base, double[] unitSum, long[] encoderBuffers, double[] inverseBuffers) {
    this.encoder = encoder;
    this.lattice = lattice;
    this.noise = noise;
    this.horizon = horizon;
    this.dimension = dimension;
    this.buffers = encoder.buffers();
    this.decays = encoder.strategy().decays();
    this.scales = encoder.strategy().scales();
    this.epoch = epoch;
    this.stepsInEpoch = stepsInEpoch;
    this.base = base;
    this.unitSum = unitSum;
    this.encoderBuffers = encoderBuffers;
    this.inverseBuffers = inverseBuffers;
    this.leafUnits = new long[dimension];
    this.row = new long[dimension];
    this.nextEncoderBuffers = new long[buffers * dimension];
    this.nextInverseBuffers = new double[buffers * dimension];
    this.nextUnitSum = new double[dimension];
    this.nextBase = new double[dimension];
    this.nextRelease = new double[dimension];
  }

  /**
   * A fresh mechanism. Private as calibrated only when {@code noise} adds the calibrated N_Z(0, n^2) per coordinate
   * from the keyed source (derived with {@link #NOISE_PURPOSE}) on {@code lattice}, and leaves are clipped to the
   * calibrated sensitivity; other noise is for tests.
   *
   * @param encoder the fixed-point strategy, whose leaf bound covers the clipped leaves in units of {@code lattice}
   */
  public static ExactBltPrefixSum start(FixedPointBlt encoder, Lattice lattice, NodeNoise noise, long horizon,
      int dimension) {
    Objects.requireNonNull(encoder, "encoder");
    Objects.requireNonNull(lattice, "lattice");
    Objects.requireNonNull(noise, "noise");
    if (dimension <= 0 || horizon <= 0) {
      throw new IllegalArgumentException("need dimension > 0 and horizon > 0: d=" + dimension + ", n=" + horizon);
    }
    int m = encoder.buffers();
    return new ExactBltPrefixSum(encoder, lattice, noise, horizon, dimension, 0, 0, new double[dimension],
        new double[dimension], new long[m * dimension], new double[m * dimension]);
  }

  /**
   * Adds a leaf (real units, clipped by the caller) and writes the release: the noisy prefix sum over the stream.
   *
   * @throws IllegalArgumentException if a length is wrong or the release overflows; nothing changes
   * @throws ArithmeticException if the leaf is not finite or beyond the lattice; nothing changes
   */
  @Override
  public void addAndRelease(double[] leaf, double[] release) {
    requireLength(leaf, "leaf");
    requireLength(release, "release");
    lattice.toUnits(leaf, leafUnits);
    for (int j = 0; j < dimension; j++) {
      leafUnits[j] = encoder.clamp(leafUnits[j]);
    }
    boolean startsEpoch = stepsInEpoch == horizon;
    long stagedEpoch = startsEpoch ? Math.addExact(epoch, 1) : epoch;
    long stagedStep = startsEpoch ? 1 : stepsInEpoch + 1;
    boolean fresh = stagedStep == 1;

    encoder.step(leafUnits, fresh ? null : encoderBuffers, nextEncoderBuffers, row);
    noise.add(stagedEpoch, stagedStep, row); // u_t = R_t + z_t, exact (overflow throws)

    double gamma = lattice.granularity();
    for (int j = 0; j < dimension; j++) {
      int offset = j * buffers;
      double w = row[j];
      if (!fresh) {
        for (int i = 0; i < buffers; i++) {
          w -= scales[i] * inverseBuffers[offset + i];
        }
      }
      for (int i = 0; i < buffers; i++) {
        nextInverseBuffers[offset + i] = (fresh ? 0.0 : decays[i] * inverseBuffers[offset + i]) + w;
      }
      nextUnitSum[j] = (fresh ? 0.0 : unitSum[j]) + w;
      nextBase[j] = startsEpoch ? base[j] + unitSum[j] * gamma : base[j];
      nextRelease[j] = nextBase[j] + nextUnitSum[j] * gamma;
      if (!Double.isFinite(nextRelease[j])) {
        throw new IllegalArgumentException("the release overflows");
      }
    }

    long[] encoderSwap = encoderBuffers;
    encoderBuffers = nextEncoderBuffers;
    nextEncoderBuffers = encoderSwap;
    double[] inverseSwap = inverseBuffers;
    inverseBuffers = nextInverseBuffers;
    nextInverseBuffers = inverseSwap;
    System.arraycopy(nextUnitSum, 0, unitSum, 0, dimension);
    System.arraycopy(nextBase, 0, base, 0, dimension);
    epoch = stagedEpoch;
    stepsInEpoch = stagedStep;
    System.arraycopy(nextRelease, 0, release, 0, dimension);
  }

  @Override
  public long epoch() {
    return epoch;
  }

  @Override
  public long stepsInEpoch() {
    return stepsInEpoch;
  }

  @Override
  public long totalSteps() {
    return Math.addExact(Math.multiplyExact(epoch, horizon), stepsInEpoch);
  }

  public long horizon() {
    return horizon;
  }

  /**
   * Writes (version, d, n, buffers, lattice exponent, leaf bound, epoch, steps in epoch, base, running sum, B-side
   * buffers, C-side buffers), big-endian as {@link DataOutput}. No noise of a future step is written.
   */
  @Override
  public void writeTo(DataOutput out) throws IOException {
    out.writeByte(SNAPSHOT_VERSION);
    out.writeInt(dimension);
    out.writeLong(horizon);
    out.writeInt(buffers);
    out.writeInt(lattice.exponent());
    out.writeLong(encoder.leafBound());
    out.writeLong(epoch);
    out.writeLong(stepsInEpoch);
    for (double v : base) {
      out.writeDouble(v);
    }
    for (double v : unitSum) {
      out.writeDouble(v);
    }
    for (double v : inverseBuffers) {
      out.writeDouble(v);
    }
    for (long v : encoderBuffers) {
      out.writeLong(v);
    }
  }

  /**
   * Restores a snapshot of {@link #writeTo} for the same encoder, lattice, horizon and dimension, drawing future noise
   * from {@code noise}.
   *
   * @throws IOException if the snapshot is another mechanism's, another configuration's, or corrupt
   */
  public static ExactBltPrefixSum readFrom(DataInput in, FixedPointBlt encoder, Lattice lattice, NodeNoise noise,
      long horizon, int dimension) throws IOException {
    byte version = in.readByte();
    if (version != SNAPSHOT_VERSION) {
      throw new IOException("not an exact BLT snapshot of this version: first byte " + version + " (expected "
          + SNAPSHOT_VERSION + ")");
    }
    int d = in.readInt();
    long n = in.readLong();
    int m = in.readInt();
    int exponent = in.readInt();
    long leafBound = in.readLong();
    if (d != dimension || n != horizon || m != encoder.buffers() || exponent != lattice.exponent()
        || leafBound != encoder.leafBound()) {
      throw new IOException("exact BLT snapshot of d=" + d + ", n=" + n + ", " + m + " buffers, lattice 2^" + exponent
          + ", X=" + leafBound + " does not match d=" + dimension + ", n=" + horizon + ", " + encoder.buffers()
          + " buffers, " + lattice + ", X=" + encoder.leafBound());
    }
    long epoch = in.readLong();
    long steps = in.readLong();
    if (epoch < 0 || steps < 0 || steps > horizon) {
      throw new IOException("corrupt exact BLT snapshot: epoch " + epoch + ", " + steps + " steps of " + horizon);
    }
    double[] base = readFinite(in, d);
    double[] unitSum = readFinite(in, d);
    double[] inverseBuffers = readFinite(in, m * d);
    long[] encoderBuffers = new long[m * d];
    for (int k = 0; k < encoderBuffers.length; k++) {
      encoderBuffers[k] = in.readLong();
      if (!encoder.admissibleBuffer(k % m, encoderBuffers[k])) {
        throw new IOException("corrupt exact BLT snapshot: buffer value " + encoderBuffers[k] + " out of range");
      }
    }
    return new ExactBltPrefixSum(encoder, lattice, noise, horizon, d, epoch, steps, base, unitSum, encoderBuffers,
        inverseBuffers);
  }

  private static double[] readFinite(DataInput in, int count) throws IOException {
    double[] values = new double[count];
    for (int k = 0; k < count; k++) {
      values[k] = in.readDouble();
      if (!Double.isFinite(values[k])) {
        throw new IOException("corrupt exact BLT snapshot: " + values[k]);
      }
    }
    return values;
  }

  private void requireLength(double[] vector, String name) {
    Objects.requireNonNull(vector, name);
    if (vector.length != dimension) {
      throw new IllegalArgumentException(name + " has length " + vector.length + ", expected " + dimension);
    }
  }

  @Override
  public String toString() {
    return "ExactBltPrefixSum[d=" + dimension + ", n=" + horizon + ", " + lattice + ", epoch=" + epoch + ", steps="
        + stepsInEpoch + ", " + encoder + "]";
  }
}
