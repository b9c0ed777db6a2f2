package org.dpstream.core.geometry;

import java.util.Objects;

/** Argument checks and elementary reductions shared by this package, so every message reads the same. */
final class Vectors {

  private Vectors() {}

  /** max_i |x_i|, NaN if some entry is NaN (Math.max propagates it), 0 for an empty vector. */
  static double maxAbs(double[] x) {
    double max = 0;
    for (double value : x) {
      max = Math.max(max, Math.abs(value));
    }
    return max;
  }

  /** max_i |x_i|, or IllegalArgumentException naming {@code what} if an entry is NaN or infinite. */
  static double requireFiniteMaxAbs(double[] x, String what) {
    double max = maxAbs(x);
    if (!(max <= Double.MAX_VALUE)) {
      throw new IllegalArgumentException(what + " must have finite entries, max |entry| is " + max);
    }
    return max;
  }

  static void requireSameLength(double[] input, double[] out, String inputName) {
    Objects.requireNonNull(input, inputName);
    Objects.requireNonNull(out, "out");
    if (out.length != input.length) {
      throw new IllegalArgumentException(
          "out.length must equal " + inputName + ".length " + input.length + ", got " + out.length);
    }
  }

  static void requireDistinct(double[] input, double[] out, String inputName) {
    if (input == out) {
      throw new IllegalArgumentException("out must not be the same array as " + inputName);
    }
  }

  static double requirePositiveFinite(double value, String name) {
    if (!(value > 0 && value <= Double.MAX_VALUE)) {
      throw new IllegalArgumentException(name + " must be finite and > 0, got " + value);
    }
    return value;
  }
}
