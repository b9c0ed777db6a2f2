package org.dpstream.core.privacy.factorization;

import java.io.DataInput;
import java.io.IOException;
import java.util.Arrays;
import java.util.Objects;
import org.dpstream.core.privacy.accounting.GaussianZcdpMap;
import org.dpstream.core.privacy.noise.IidVectorNoise;
import org.dpstream.core.privacy.noise.VectorNoise;
import org.dpstream.core.privacy.random.NoiseStream;

/**
 * Continual release of d-dimensional prefix sums with a buffered linear Toeplitz factorization A = B C,
 * B = A C^{-1} ({@link BltStrategy}; Dvijotham et al. 2024, McMahan et al. 2024): at step t of an epoch the
 * release is base + (S_t + N_t), with S_t the exact sum of the epoch's leaves and N_t = sum_{s &lt;= t} w_s the
 * prefix sum of w = C^{-1} z, z_s ~ N(0, sigma^2 I_d) drawn from the keyed source at (epoch, s). So the
 * releases are B (C x + z): the Gaussian mechanism on C x, post-processed. Privacy and accounting:
 * {@link GaussianZcdpMap} with the BLT's column norms; the guarantee holds for leaves chosen
 * adaptively from earlier releases (Denisov et al. 2022, Theorem 2.1).
 *
 * <p>Cost: w_t = z_t - sum_i omega_i s_i and s_i &lt;- theta_i s_i + w_t, one draw of d Gaussians and O(d m)
 * arithmetic per step, O(d m) state for m buffers, whatever t is.
 *
 * <p>Epochs as {@link SqrtFactorizationPrefixSum}: the leaf after the n-th starts a new epoch (empty buffers,
 * fresh noise coordinates) whose releases continue from the last release of the previous one.
 *
 * <p>Determinism: the noise state is a function of (key, epoch, t) computed in one fixed order, so replays
 * are bit-identical. Snapshots ({@link #writeTo}) hold only (epoch, base, t, S_t), never noise; a restore
 * regenerates the buffers and N_t by replaying draws 1..t of the epoch through the same code (O(t d m), once),
 * so the continuation is bit-identical to an uninterrupted run.
 *
 * <p>Failure atomicity: a step that throws changes nothing (neither the state nor {@code release}).
 *
 * <p>Accounting is the caller's: before {@link #addAndRelease}, reserve
 * {@code calibration.spentAfter(nextStepInEpoch())} in the model's ledger (starting its next epoch when
 * {@code nextStepInEpoch() == 1} and an epoch has already run), and clip each leaf to the calibrated
 * sensitivity; the mechanism only checks that leaves are finite.
 *
 * <p>Floating point: the noise is a floating-point Gaussian combined with real coefficients in doubles, not a
 * lattice quantity (docs/privacy-layer.md). The exact sum is raw data: snapshots need the access control of
 * the input. Not thread-safe: one instance per stream thread.
 */
public final class BltPrefixSum extends EpochedPrefixSum {

  /** The purpose under which to derive this mechanism's {@link NoiseStream}, so it shares no bits with another. */
  public static final String NOISE_PURPOSE = "blt";

  /** First byte of a snapshot; bump it when the layout changes. */
  static final byte SNAPSHOT_VERSION = 1;

  private final int dimension;
  private final NoiseStream bits;
  private final VectorNoise distribution;
  private final int buffers;
  private final double[] decays;
  private final double[] scales;
  private final double[] noiseSum; // N_t
  private final double[] bufferState; // s_i, buffer i at [i d, (i + 1) d)

  // Scratch for the step being computed; committed only once nothing can fail any more.
  private final double[] draw;
  private final double[] increment; // w_t
  private final double[] nextNoiseSum;
  private final double[] nextRelease;

  private BltPrefixSum(BltStrategy strategy, EpochState state, NoiseStream bits, VectorNoise distribution) {
    super(state, SNAPSHOT_VERSION);
    this.dimension = distribution.dimension();
    this.bits = bits;
    this.distribution = distribution;
    this.buffers = strategy.buffers();
    this.decays = strategy.decays();
    this.scales = strategy.scales();
    this.noiseSum = new double[dimension];
    this.bufferState = new double[buffers * dimension];
    this.draw = new double[dimension];
    this.increment = new double[dimension];
    this.nextNoiseSum = new double[dimension];
    this.nextRelease = new double[dimension];
    // Regenerate the noise state of steps 1..t of the epoch (nothing to do for a fresh mechanism).
    for (long step = 1; step <= state.stepsInEpoch(); step++) {
      noiseIncrement(state.epoch(), step);
      commitNoise(step);
    }
  }

  /**
   * The production mechanism: Gaussian noise with the calibration's sigma, epochs of its horizon.
   *
   * @param calibration made from this strategy's {@link BltStrategy#squaredColumnNormUpperBounds} (as
   *     {@code online.BltPlan} does); another strategy's calibration would not price this noise
   * @param bits derive it with {@code source.forStream(NOISE_PURPOSE, streamId)}
   */
  public static BltPrefixSum start(int dimension, BltStrategy strategy, GaussianZcdpMap calibration,
      NoiseStream bits) {
    return start(strategy, calibration.horizon(), bits, IidVectorNoise.gaussian(dimension, calibration.sigma()));
  }

  /**
   * A mechanism with any noise distribution; private as calibrated only when {@code noise} is N(0, sigma^2 I_d)
   * with the sigma and horizon of the strategy's {@link GaussianZcdpMap}. Others are for tests.
   */
  public static BltPrefixSum start(BltStrategy strategy, long horizon, NoiseStream bits, VectorNoise noise) {
    Objects.requireNonNull(strategy, "strategy");
    Objects.requireNonNull(bits, "bits");
    int dimension = noise.dimension();
    if (dimension <= 0 || horizon <= 0) {
      throw new IllegalArgumentException("need dimension > 0 and horizon > 0: d=" + dimension + ", n=" + horizon);
    }
    return new BltPrefixSum(strategy, EpochState.start(dimension, horizon), bits, noise);
  }

  /**
   * Adds a leaf and writes the release: the noisy prefix sum over the whole stream.
   *
   * @param leaf d finite values (as clipped by the caller: the mechanism does not know the sensitivity)
   * @param release receives d values; may be {@code leaf} itself
   * @throws IllegalArgumentException if a length is wrong, the leaf is not finite, or a sum overflows;
   *     nothing changes
   */
  @Override
  public void addAndRelease(double[] leaf, double[] release) {
    state.checkStep(leaf, release);
    state.stage(leaf, noiseSum); // at an epoch's start, its last release (noise N_n) is the next one's base
    noiseIncrement(state.stagedEpoch(), state.stagedStep());
    state.releaseInto(nextNoiseSum, nextRelease);

    commitNoise(state.stagedStep());
    state.commit();
    System.arraycopy(nextRelease, 0, release, 0, dimension);
  }

  /**
   * w_t = z_t - sum_i omega_i s_i into {@code increment} and N_{t-1} + w_t into {@code nextNoiseSum}, from the
   * committed state (treated as empty at t = 1); changes no state.
   */
  private void noiseIncrement(long noiseEpoch, long step) {
    distribution.sample(bits.at(noiseEpoch, step), draw);
    boolean fresh = step == 1;
    for (int j = 0; j < dimension; j++) {
      double w = draw[j];
      if (!fresh) {
        for (int i = 0; i < buffers; i++) {
          w -= scales[i] * bufferState[i * dimension + j];
        }
      }
      increment[j] = w;
      nextNoiseSum[j] = (fresh ? 0.0 : noiseSum[j]) + w;
    }
  }

  /** s_i &lt;- theta_i s_i + w_t (from empty at t = 1) and N_t. */
  private void commitNoise(long step) {
    boolean fresh = step == 1;
    for (int i = 0; i < buffers; i++) {
      double theta = decays[i];
      int offset = i * dimension;
      for (int j = 0; j < dimension; j++) {
        bufferState[offset + j] = (fresh ? 0.0 : theta * bufferState[offset + j]) + increment[j];
      }
    }
    System.arraycopy(nextNoiseSum, 0, noiseSum, 0, dimension);
  }

  /**
   * Restores a snapshot of {@link #writeTo} as a production mechanism of {@code calibration}.
   *
   * @throws IOException if the snapshot is corrupt or its horizon is not the calibration's
   */
  public static BltPrefixSum readFrom(DataInput in, BltStrategy strategy, GaussianZcdpMap calibration,
      NoiseStream bits, int dimension) throws IOException {
    BltPrefixSum restored = readFrom(in, strategy, bits, IidVectorNoise.gaussian(dimension, calibration.sigma()));
    if (restored.horizon() != calibration.horizon()) {
      throw new IOException("snapshot horizon " + restored.horizon() + " is not the calibration's " + calibration.horizon());
    }
    return restored;
  }

  /**
   * Restores a snapshot of {@link #writeTo}, drawing noise from {@code bits} and {@code noise} (which must be
   * what the snapshotted mechanism used, or the continuation is not a replay).
   *
   * @throws IOException if the snapshot is corrupt or its dimension is not the noise's
   */
  public static BltPrefixSum readFrom(DataInput in, BltStrategy strategy, NoiseStream bits, VectorNoise noise)
      throws IOException {
    Objects.requireNonNull(strategy, "strategy");
    Objects.requireNonNull(bits, "bits");
    EpochSnapshot snapshot = EpochSnapshot.readFrom(in, SNAPSHOT_VERSION, NOISE_PURPOSE);
    if (noise.dimension() != snapshot.dimension()) {
      throw new IOException("snapshot dimension " + snapshot.dimension() + " is not the noise's " + noise.dimension());
    }
    return new BltPrefixSum(strategy, EpochState.of(snapshot), bits, noise);
  }

  @Override
  public String toString() {
    return "BltPrefixSum[d=" + dimension + ", n=" + state.horizon() + ", m=" + buffers + ", epoch=" + state.epoch()
        + ", steps=" + state.stepsInEpoch() + ", noise=" + distribution.describe()
        + ", theta=" + Arrays.toString(decays) + "]";
  }
}
