package org.dpstream.core.data;

import java.util.Arrays;

/**
 * A sparse vector: strictly increasing 0-based indices and their values. Immutable; arrays are copied in
 * and out.
 */
public final class SparseVector {

  private final int[] indices;
  private final double[] values;

  private SparseVector(int[] indices, double[] values) {
    this.indices = indices;
    this.values = values;
  }

  /**
   * @throws IllegalArgumentException if the lengths differ or the indices are negative or not strictly
   *     increasing
   */
  public static SparseVector of(int[] indices, double[] values) {
    if (indices.length != values.length) {
      throw new IllegalArgumentException(indices.length + " indices but " + values.length + " values");
    }
    for (int k = 0; k < indices.length; k++) {
      if (indices[k] < 0 || (k > 0 && indices[k] <= indices[k - 1])) {
        throw new IllegalArgumentException("indices must be >= 0 and strictly increasing: " + Arrays.toString(indices));
      }
    }
    return new SparseVector(indices.clone(), values.clone());
  }

  /** Number of stored entries. */
  public int size() {
    return indices.length;
  }

  /** The 0-based index of stored entry k. */
  public int index(int k) {
    return indices[k];
  }

  public double value(int k) {
    return values[k];
  }

  /** One more than the largest index, 0 if empty. */
  public int extent() {
    return indices.length == 0 ? 0 : indices[indices.length - 1] + 1;
  }

  /** The dense vector of the given dimension. */
  public double[] toDense(int dimension) {
    if (extent() > dimension) {
      throw new IllegalArgumentException("index " + (extent() - 1) + " does not fit dimension " + dimension);
    }
    double[] dense = new double[dimension];
    for (int k = 0; k < indices.length; k++) {
      dense[indices[k]] = values[k];
    }
    return dense;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof SparseVector that && Arrays.equals(indices, that.indices)
        && Arrays.equals(values, that.values);
  }

  @Override
  public int hashCode() {
    return 31 * Arrays.hashCode(indices) + Arrays.hashCode(values);
  }

  @Override
  public String toString() {
    StringBuilder text = new StringBuilder("SparseVector{");
    for (int k = 0; k < indices.length; k++) {
      text.append(k == 0 ? "" : ", ").append(indices[k]).append(':').append(values[k]);
    }
    return text.append('}').toString();
  }
}
