package org.dpstream.core.privacy.factorization;

import java.io.DataOutput;
import java.io.IOException;
import java.util.Objects;

/**
 * The exact part of a factorization mechanism's state, and its epochs: (epoch, base, steps in epoch t, exact
 * sum S_t), shared by {@link BltPrefixSum} and {@link SqrtFactorizationPrefixSum}. An epoch has n = horizon
 * steps; the leaf after the n-th starts a new epoch over the new leaves only, whose base is the last release
 * of the previous epoch, so releases continue (post-processing). The noise is the mechanism's: it passes the
 * noise of a release in, and this class combines it with the exact sums by the one expression of a release,
 * base + (S_t + noise), so that an epoch's base is bit for bit its predecessor's last release.
 *
 * <p>A step is staged, then committed: {@link #stage} and {@link #releaseInto} check and compute into scratch
 * and throw before anything changes; {@link #commit} cannot fail. So a step that throws changes nothing.
 * Not thread-safe.
 */
final class EpochState {

  private final int dimension;
  private final long horizon;
  private final double[] base;
  private final double[] exactSum;
  private long epoch;
  private long stepsInEpoch;

  // The staged step; committed only once nothing can fail any more.
  private final double[] nextBase;
  private final double[] nextSum;
  private long nextEpoch;
  private long nextStep;

  EpochState(int dimension, long horizon, long epoch, double[] base, long stepsInEpoch, double[] exactSum) {
    this.dimension = dimension;
    this.horizon = horizon;
    this.epoch = epoch;
    this.base = base;
    this.stepsInEpoch = stepsInEpoch;
    this.exactSum = exactSum;
    this.nextBase = new double[dimension];
    this.nextSum = new double[dimension];
  }

  /** A fresh stream: epoch 0, no leaf, base 0. */
  static EpochState start(int dimension, long horizon) {
    return new EpochState(dimension, horizon, 0, new double[dimension], 0, new double[dimension]);
  }

  static EpochState of(EpochSnapshot snapshot) {
    return new EpochState(snapshot.dimension(), snapshot.horizon(), snapshot.epoch(), snapshot.base(),
        snapshot.steps(), snapshot.exactSum());
  }

  /** Writes (version, dimension, horizon, epoch, base, steps in epoch, exact sum); never noise. */
  void writeTo(DataOutput out, byte version) throws IOException {
    new EpochSnapshot(dimension, horizon, epoch, base, stepsInEpoch, exactSum).writeTo(out, version);
  }

  /**
   * Checks a step's arguments: both of length d, the leaf finite.
   *
   * @throws IllegalArgumentException naming what is wrong
   */
  void checkStep(double[] leaf, double[] release) {
    requireLength(leaf, "leaf");
    requireLength(release, "release");
    for (int j = 0; j < dimension; j++) {
      if (!Double.isFinite(leaf[j])) {
        throw new IllegalArgumentException("leaf coordinate " + j + " is not finite: " + leaf[j]);
      }
    }
  }

  /** Whether the next leaf starts a new epoch (the current one has had its n leaves). */
  boolean nextStartsEpoch() {
    return stepsInEpoch == horizon;
  }

  /**
   * Stages the next leaf: its epoch and step, the base (the last release of the current epoch, base + (S_n +
   * {@code lastNoise}), when the leaf starts a new one) and the exact sum.
   *
   * @param lastNoise the noise of the current epoch's last release; read only when {@link #nextStartsEpoch()}
   * @throws IllegalArgumentException if the exact sum or the base overflows; nothing changes
   */
  void stage(double[] leaf, double[] lastNoise) {
    boolean startsEpoch = nextStartsEpoch();
    long stagedEpoch = startsEpoch ? Math.addExact(epoch, 1) : epoch;
    for (int j = 0; j < dimension; j++) {
      if (startsEpoch) {
        nextBase[j] = base[j] + (exactSum[j] + lastNoise[j]);
        nextSum[j] = leaf[j];
      } else {
        nextBase[j] = base[j];
        nextSum[j] = exactSum[j] + leaf[j];
      }
    }
    requireFinite(nextSum, "the exact sum overflows");
    requireFinite(nextBase, "the release overflows");
    nextEpoch = stagedEpoch;
    nextStep = startsEpoch ? 1 : stepsInEpoch + 1;
  }

  /** The epoch of the staged leaf. */
  long stagedEpoch() {
    return nextEpoch;
  }

  /** The step within its epoch of the staged leaf. */
  long stagedStep() {
    return nextStep;
  }

  /**
   * out = base + (S_t + noise) of the staged leaf.
   *
   * @throws IllegalArgumentException if the release overflows; nothing changes but {@code out}
   */
  void releaseInto(double[] noise, double[] out) {
    for (int j = 0; j < dimension; j++) {
      out[j] = nextBase[j] + (nextSum[j] + noise[j]);
    }
    requireFinite(out, "the release overflows");
  }

  /** Makes the staged leaf the current state. */
  void commit() {
    epoch = nextEpoch;
    stepsInEpoch = nextStep;
    System.arraycopy(nextBase, 0, base, 0, dimension);
    System.arraycopy(nextSum, 0, exactSum, 0, dimension);
  }

  int dimension() {
    return dimension;
  }

  long horizon() {
    return horizon;
  }

  long epoch() {
    return epoch;
  }

  long stepsInEpoch() {
    return stepsInEpoch;
  }

  /** The step within its epoch that the next leaf will be: 1 when it starts a new epoch, else stepsInEpoch + 1. */
  long nextStepInEpoch() {
    return nextStartsEpoch() ? 1 : stepsInEpoch + 1;
  }

  /** Leaves over all epochs. */
  long totalSteps() {
    return Math.addExact(Math.multiplyExact(epoch, horizon), stepsInEpoch);
  }

  private void requireLength(double[] vector, String name) {
    Objects.requireNonNull(vector, name);
    if (vector.length != dimension) {
      throw new IllegalArgumentException(name + " has length " + vector.length + ", expected " + dimension);
    }
  }

  private static void requireFinite(double[] vector, String problem) {
    for (double v : vector) {
      if (!Double.isFinite(v)) {
        throw new IllegalArgumentException(problem);
      }
    }
  }
}
