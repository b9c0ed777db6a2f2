package org.dpstream.core.privacy;

import java.io.DataOutput;
import java.io.IOException;

/**
 * Continual release of the prefix sums of a stream of d-dimensional vectors, in real units, over
 * epochs of a fixed horizon (past it, a new epoch continues from the last release).
 *
 * <p>Contract: the release after the t-th leaf is the exact sum of the leaves plus noise that is a
 * deterministic function of the key and the noise's coordinates, so a replay is bit-identical; how
 * private that is, is the business of the calibration the implementation was built with. A failed
 * step changes nothing.
 */
public interface PrivatePrefixSums {

  /** Adds a (clipped) leaf and writes the noisy prefix sum over the whole stream. */
  void addAndRelease(double[] leaf, double[] release);

  long epoch();

  /** Leaves in the current epoch. */
  long stepsInEpoch();

  /** Leaves over all epochs. */
  long totalSteps();

  /** Writes an O(d) snapshot with a leading version byte; it holds exact sums (raw data), never noise. */
  void writeTo(DataOutput out) throws IOException;
}
