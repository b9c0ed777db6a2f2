package org.dpstream.core.data;

import java.util.List;
import java.util.Objects;

/**
 * A sparse labelled data set, as LibSVM files hold it: n sparse rows of dimension d and n labels.
 * Immutable.
 */
public final class SparseLabelledData {

  private final List<SparseVector> rows;
  private final double[] labels;
  private final int dimension;

  /**
   * @param dimension d; every row's indices must be below it
   */
  public SparseLabelledData(List<SparseVector> rows, double[] labels, int dimension) {
    this.rows = List.copyOf(Objects.requireNonNull(rows, "rows"));
    this.labels = labels.clone();
    this.dimension = dimension;
    if (this.rows.size() != this.labels.length) {
      throw new IllegalArgumentException(this.rows.size() + " rows but " + this.labels.length + " labels");
    }
    for (int i = 0; i < this.rows.size(); i++) {
      if (this.rows.get(i).extent() > dimension) {
        throw new IllegalArgumentException("row " + i + " has index " + (this.rows.get(i).extent() - 1)
            + ", beyond dimension " + dimension);
      }
    }
  }

  public int size() {
    return labels.length;
  }

  public int dimension() {
    return dimension;
  }

  public SparseVector row(int i) {
    return rows.get(i);
  }

  public double label(int i) {
    return labels[i];
  }

  /** Number of stored entries over all rows. */
  public long nonZeros() {
    long count = 0;
    for (SparseVector row : rows) {
      count += row.size();
    }
    return count;
  }

  /** The dense n x d form (absent entries are 0). */
  public LabelledData toDense() {
    double[][] dense = new double[rows.size()][];
    for (int i = 0; i < dense.length; i++) {
      dense[i] = rows.get(i).toDense(dimension);
    }
    return LabelledData.of(dense, labels);
  }

  @Override
  public String toString() {
    return "SparseLabelledData(n=" + size() + ", d=" + dimension + ", nnz=" + nonZeros() + ")";
  }
}
