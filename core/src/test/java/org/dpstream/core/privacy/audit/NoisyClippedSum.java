package org.dpstream.core.privacy.audit;

import org.apache.commons.rng.UniformRandomProvider;
import org.dpstream.core.privacy.noise.VectorNoise;

/**
 * Test mechanism: releases the sum of the records' contributions, each clipped to L2 norm at most
 * {@code clipBound}, plus noise. D' is D plus one record, so only D's (already clipped) sum and the
 * added record matter. With {@code clipping == false} it reproduces the bug of a skipped clip: the
 * added record enters the sum at full size while the noise still assumes the clip bound.
 */
final class NoisyClippedSum implements AuditedVectorMechanism {

  private final double[] sumOnOriginal;
  private final double[] addedContribution;
  private final VectorNoise noise;

  private NoisyClippedSum(double[] sumOnOriginal, double[] addedContribution, VectorNoise noise) {
    if (sumOnOriginal.length != noise.dimension() || addedContribution.length != noise.dimension()) {
      throw new IllegalArgumentException("dimensions differ from the noise's " + noise.describe());
    }
    this.sumOnOriginal = sumOnOriginal.clone();
    this.addedContribution = addedContribution;
    this.noise = noise;
  }

  /** The correct mechanism: the added record is clipped to {@code clipBound}. */
  static NoisyClippedSum clipping(double[] sumOnOriginal, double[] addedRecord, double clipBound,
      VectorNoise noise) {
    return new NoisyClippedSum(sumOnOriginal, clipped(addedRecord, clipBound), noise);
  }

  /** The broken mechanism that adds the record unclipped. */
  static NoisyClippedSum skippingTheClip(double[] sumOnOriginal, double[] addedRecord,
      VectorNoise noise) {
    return new NoisyClippedSum(sumOnOriginal, addedRecord.clone(), noise);
  }

  @Override
  public double[] run(boolean neighbour, UniformRandomProvider rng) {
    double[] release = new double[noise.dimension()];
    noise.sample(rng, release);
    for (int i = 0; i < release.length; i++) {
      release[i] += sumOnOriginal[i] + (neighbour ? addedContribution[i] : 0);
    }
    return release;
  }

  private static double[] clipped(double[] record, double clipBound) {
    double norm = 0;
    for (double coordinate : record) {
      norm += coordinate * coordinate;
    }
    norm = Math.sqrt(norm);
    double factor = norm > clipBound ? clipBound / norm : 1;
    double[] clipped = new double[record.length];
    for (int i = 0; i < record.length; i++) {
      clipped[i] = record[i] * factor;
    }
    return clipped;
  }
}
