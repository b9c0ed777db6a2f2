package org.dpstream.core.privacy.testing;

import org.dpstream.core.privacy.tree.NodeNoise;

/**
 * Test double: every node's noise is the constant c in every coordinate (TF Privacy's
 * ConstantValueGenerator), so the noise in a release at t is c times the number of nodes used,
 * popcount(t). c = 0 turns the noise off.
 */
public final class ConstantNodeNoise implements NodeNoise {

  private final long units;

  public ConstantNodeNoise(long units) {
    this.units = units;
  }

  @Override
  public void add(long epoch, long node, long[] sum) {
    for (int i = 0; i < sum.length; i++) {
      sum[i] += units;
    }
  }

  @Override
  public void subtract(long epoch, long node, long[] sum) {
    for (int i = 0; i < sum.length; i++) {
      sum[i] -= units;
    }
  }
}
