package org.dpstream.core.privacy.noise;

import static org.dpstream.core.privacy.noise.NoiseArguments.requireLength;

import java.util.Arrays;
import org.apache.commons.rng.UniformRandomProvider;

/**
 * "Noise" that is always the same vector and reads no bits. Two uses only, both NOT PRIVATE: {@link #zero}
 * is the noise of the explicit non-private mode of the batch algorithms and DP-DDA (the reference lines a
 * data owner compares the private model with, and tests), so that no mechanism switches its noise off with
 * a flag inside its loop; {@link #of} is the constant-noise test double that lets a test hold a mechanism's
 * step to hand-computed values.
 */
public final class ConstantVectorNoise implements VectorNoise {

  private final double[] values;

  private ConstantVectorNoise(double[] values) {
    this.values = values;
  }

  /** Zeros in {@code dimension} coordinates: the non-private mode's noise. */
  public static ConstantVectorNoise zero(int dimension) {
    return new ConstantVectorNoise(new double[NoiseArguments.requirePositiveDimension(dimension)]);
  }

  /** Always {@code values} (copied). */
  public static ConstantVectorNoise of(double... values) {
    NoiseArguments.requirePositiveDimension(values.length);
    return new ConstantVectorNoise(values.clone());
  }

  @Override
  public int dimension() {
    return values.length;
  }

  /** Copies the constant into {@code out}; {@code bits} is not read (it may be null). */
  @Override
  public void sample(UniformRandomProvider bits, double[] out) {
    requireLength(out, values.length);
    System.arraycopy(values, 0, out, 0, values.length);
  }

  @Override
  public String describe() {
    return "constant(NOT PRIVATE, " + Arrays.toString(values) + ")";
  }

  @Override
  public String toString() {
    return describe();
  }
}
