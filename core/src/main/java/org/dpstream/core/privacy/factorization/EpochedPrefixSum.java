package org.dpstream.core.privacy.factorization;

import java.io.DataOutput;
import java.io.IOException;
import org.dpstream.core.privacy.PrivatePrefixSums;

/**
 * What the factorization mechanisms ({@link BltPrefixSum}, {@link SqrtFactorizationPrefixSum}) answer from
 * their {@link EpochState} alone: the position in the stream and the snapshot. The noise is each subclass's.
 */
abstract class EpochedPrefixSum implements PrivatePrefixSums {

  /** Epoch, base, steps in epoch, exact sum: the whole state that snapshots hold. */
  final EpochState state;
  private final byte snapshotVersion;

  EpochedPrefixSum(EpochState state, byte snapshotVersion) {
    this.state = state;
    this.snapshotVersion = snapshotVersion;
  }

  public int dimension() {
    return state.dimension();
  }

  public long horizon() {
    return state.horizon();
  }

  @Override
  public long epoch() {
    return state.epoch();
  }

  /** Leaves in the current epoch, in [0, horizon]; the epoch changes on the leaf after the horizon-th. */
  @Override
  public long stepsInEpoch() {
    return state.stepsInEpoch();
  }

  /** The step within its epoch that the next leaf will be: 1 when it starts a new epoch, else stepsInEpoch + 1. */
  public long nextStepInEpoch() {
    return state.nextStepInEpoch();
  }

  /** Leaves over all epochs. */
  @Override
  public long totalSteps() {
    return state.totalSteps();
  }

  /**
   * Writes the state ({@link EpochSnapshot}: version, dimension, horizon, epoch, base, steps in epoch, exact
   * sum, big-endian as {@link DataOutput}). No noise is written: a restore regenerates it from the key. The
   * snapshot holds the raw exact sum and so needs the access control of the input.
   */
  @Override
  public void writeTo(DataOutput out) throws IOException {
    state.writeTo(out, snapshotVersion);
  }
}
