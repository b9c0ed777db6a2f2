package org.dpstream.core.privacy.noise;

import java.util.Objects;

/** Argument checks shared by the samplers of this package, so every message reads the same. */
final class NoiseArguments {

  private NoiseArguments() {}

  static int requirePositiveDimension(int dimension) {
    if (dimension <= 0) {
      throw new IllegalArgumentException("dimension must be > 0, got " + dimension);
    }
    return dimension;
  }

  /** Rejects NaN and infinities too: an infinite scale or shape yields no usable noise. */
  static double requirePositiveFinite(double value, String name) {
    if (!(value > 0 && value < Double.POSITIVE_INFINITY)) {
      throw new IllegalArgumentException(name + " must be finite and > 0, got " + value);
    }
    return value;
  }

  static void requireLength(double[] out, int dimension) {
    Objects.requireNonNull(out, "out");
    if (out.length != dimension) {
      throw new IllegalArgumentException(
          "out.length must equal dimension " + dimension + ", got " + out.length);
    }
  }
}
