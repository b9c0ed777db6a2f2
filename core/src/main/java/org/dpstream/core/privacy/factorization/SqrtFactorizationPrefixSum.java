package org.dpstream.core.privacy.factorization;

import java.io.DataInput;
import java.io.IOException;
import java.util.Objects;
import java.util.function.IntFunction;
import org.dpstream.core.privacy.noise.IidVectorNoise;
import org.dpstream.core.privacy.noise.VectorNoise;
import org.dpstream.core.privacy.random.NoiseStream;

/**
 * Continual release of d-dimensional prefix sums with the square-root factorization (package overview):
 * at step t of an epoch the release is base + S_t + sum_{i=1..t} r_{t-i} z_i, with S_t the exact sum of the
 * epoch's leaves, z_i ~ N(0, sigma^2 I_d) drawn from the keyed source at (epoch, i), and base the last release
 * of the previous epochs. Privacy and its accounting: {@link SqrtFactorizationCalibration}; the guarantee holds
 * for leaves chosen adaptively from earlier releases (Denisov et al. 2022, Theorem 2.1).
 *
 * <p>Epochs (as {@code ContinualPrefixSum}): an epoch has n = horizon steps. The leaf after the n-th starts a
 * new epoch over the new leaves only, whose releases continue from the last release of the previous epoch
 * (post-processing). Each leaf is in exactly one epoch, so the event-level guarantee of one epoch holds for
 * the whole stream.
 *
 * <p>State is O(d): (epoch, base, steps in epoch t, exact sum S_t). The noise is not stored: each step
 * regenerates z_1..z_t from the key, so step t costs t draws of d Gaussians and O(t d) arithmetic. That is
 * the price of O(d) state without approximation; it is fine up to horizons of about 10^5 per epoch (about
 * 300 ns per regenerated draw, so 1.5 to 3.5 ms per step at t = 10^4, d = 5). {@link BltPrefixSum} (a buffered linear Toeplitz
 * factorization with a few geometric buffers) has nearly the same error at O(d) time per step.
 *
 * <p>Determinism: releases are a function of (key, leaves) only; the noise is summed in a fixed order
 * ({@link KeyedToeplitzNoise}), so a replay, or a restore from {@link #writeTo}, is bit-identical.
 *
 * <p>Failure atomicity: a step that throws changes nothing (neither the state nor {@code release}).
 *
 * <p>Accounting is the caller's, as for the tree: before {@link #addAndRelease}, reserve
 * {@code calibration.spentAfter(nextStepInEpoch())} in the model's {@code PrivacyLedger} (starting its next
 * epoch when {@code nextStepInEpoch() == 1} and an epoch has already run), and clip each leaf to the
 * calibrated sensitivity; the mechanism only checks that leaves are finite.
 *
 * <p>Floating point: the noise is a floating-point Gaussian added in doubles, not rounded to a lattice as
 * the tree's is; floating-point attacks on such noise (Mironov 2012) are not mitigated here.
 *
 * <p>The exact sum is raw data: snapshots need the access control of the input (ARCHITECTURE.md section 4,
 * invariant 6). Not thread-safe: one instance per stream thread.
 */
public final class SqrtFactorizationPrefixSum extends EpochedPrefixSum {

  /** The purpose under which to derive this mechanism's {@link NoiseStream}, so it shares no bits with a tree. */
  public static final String NOISE_PURPOSE = "sqrt-factorization";

  /** First byte of a snapshot; bump it when the layout changes. */
  static final byte SNAPSHOT_VERSION = 1;

  private final int dimension;
  private final KeyedToeplitzNoise noise;

  // Scratch for the step being computed; it is committed only once nothing can fail any more.
  private final double[] noiseRow;
  private final double[] nextRelease;

  private SqrtFactorizationPrefixSum(EpochState state, KeyedToeplitzNoise noise) {
    super(state, SNAPSHOT_VERSION);
    this.dimension = noise.dimension();
    this.noise = noise;
    this.noiseRow = new double[dimension];
    this.nextRelease = new double[dimension];
  }

  /**
   * The production mechanism: Gaussian noise with the calibration's sigma, epochs of its horizon.
   *
   * @param bits derive it with {@code source.forStream(NOISE_PURPOSE, streamId)}
   */
  public static SqrtFactorizationPrefixSum start(
      int dimension, SqrtFactorizationCalibration calibration, NoiseStream bits) {
    return start(dimension, calibration.horizon(), bits, gaussianFor(calibration).apply(dimension));
  }

  /**
   * A mechanism with any noise distribution; private as calibrated only when {@code noise} is
   * N(0, sigma^2 I_d) with the sigma and horizon of a {@link SqrtFactorizationCalibration}. Other
   * distributions are for tests.
   */
  public static SqrtFactorizationPrefixSum start(int dimension, long horizon, NoiseStream bits, VectorNoise noise) {
    if (dimension <= 0 || horizon <= 0) {
      throw new IllegalArgumentException("need dimension > 0 and horizon > 0: d=" + dimension + ", n=" + horizon);
    }
    requireNoiseDimension(noise, dimension);
    return new SqrtFactorizationPrefixSum(EpochState.start(dimension, horizon),
        new KeyedToeplitzNoise(Objects.requireNonNull(bits, "bits"), noise));
  }

  /**
   * Adds a leaf and writes the release: the noisy prefix sum over the whole stream.
   *
   * @param leaf d finite values (as clipped by the caller: the mechanism does not know the sensitivity)
   * @param release receives d values; may be {@code leaf} itself
   * @throws IllegalArgumentException if a length is wrong, the leaf is not finite, or the sum overflows;
   *     nothing changes
   */
  @Override
  public void addAndRelease(double[] leaf, double[] release) {
    state.checkStep(leaf, release);
    if (state.nextStartsEpoch()) {
      // The noise of this epoch's last release, regenerated bit-identically: that release is the next base.
      noise.rowInto(state.epoch(), state.horizon(), noiseRow);
    }
    state.stage(leaf, noiseRow);
    noise.rowInto(state.stagedEpoch(), state.stagedStep(), noiseRow);
    state.releaseInto(noiseRow, nextRelease);

    state.commit();
    System.arraycopy(nextRelease, 0, release, 0, dimension);
  }

  /**
   * Restores a snapshot of {@link #writeTo} as a production mechanism of {@code calibration}.
   *
   * @throws IOException if the snapshot is corrupt or its horizon is not the calibration's
   */
  public static SqrtFactorizationPrefixSum readFrom(
      DataInput in, SqrtFactorizationCalibration calibration, NoiseStream bits) throws IOException {
    SqrtFactorizationPrefixSum restored = read(in, bits, gaussianFor(calibration));
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
  public static SqrtFactorizationPrefixSum readFrom(DataInput in, NoiseStream bits, VectorNoise noise)
      throws IOException {
    Objects.requireNonNull(noise, "noise");
    return read(in, bits, d -> noise);
  }

  private static SqrtFactorizationPrefixSum read(DataInput in, NoiseStream bits, IntFunction<VectorNoise> noiseFor)
      throws IOException {
    Objects.requireNonNull(bits, "bits");
    EpochSnapshot snapshot = EpochSnapshot.readFrom(in, SNAPSHOT_VERSION, NOISE_PURPOSE);
    int dimension = snapshot.dimension();
    VectorNoise noise = noiseFor.apply(dimension);
    if (noise.dimension() != dimension) {
      throw new IOException("snapshot dimension " + dimension + " is not the noise's " + noise.dimension());
    }
    return new SqrtFactorizationPrefixSum(EpochState.of(snapshot), new KeyedToeplitzNoise(bits, noise));
  }

  private static IntFunction<VectorNoise> gaussianFor(SqrtFactorizationCalibration calibration) {
    return d -> IidVectorNoise.gaussian(d, calibration.noiseSigma());
  }

  private static void requireNoiseDimension(VectorNoise noise, int dimension) {
    if (noise.dimension() != dimension) {
      throw new IllegalArgumentException("noise dimension " + noise.dimension() + " is not " + dimension);
    }
  }

  @Override
  public String toString() {
    return "SqrtFactorizationPrefixSum[d=" + dimension + ", n=" + state.horizon() + ", epoch=" + state.epoch()
        + ", steps=" + state.stepsInEpoch() + ", noise=" + noise.describe() + "]";
  }
}
