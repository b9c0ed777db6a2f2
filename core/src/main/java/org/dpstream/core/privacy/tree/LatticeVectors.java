package org.dpstream.core.privacy.tree;

/** Exact vector arithmetic on lattice units; overflow fails loudly instead of wrapping. */
final class LatticeVectors {

  private LatticeVectors() {}

  static void addInto(long[] target, long[] addend) {
    checkDimension(target, addend.length);
    for (int i = 0; i < target.length; i++) {
      target[i] = Math.addExact(target[i], addend[i]);
    }
  }

  static void subtractFrom(long[] target, long[] subtrahend) {
    checkDimension(target, subtrahend.length);
    for (int i = 0; i < target.length; i++) {
      target[i] = Math.subtractExact(target[i], subtrahend[i]);
    }
  }

  static void sumInto(long[] a, long[] b, long[] target) {
    checkDimension(a, b.length);
    checkDimension(a, target.length);
    for (int i = 0; i < target.length; i++) {
      target[i] = Math.addExact(a[i], b[i]);
    }
  }

  static void checkDimension(long[] vector, int dimension) {
    if (vector.length != dimension) {
      throw new IllegalArgumentException("expected dimension " + dimension + ", got " + vector.length);
    }
  }
}
