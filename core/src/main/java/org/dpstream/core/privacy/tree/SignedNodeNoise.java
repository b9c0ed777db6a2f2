package org.dpstream.core.privacy.tree;

/**
 * A {@link NodeNoise} that draws a node's noise once per call and adds it with either sign: {@code subtract} undoes
 * {@code add} because both draw the same noise for (epoch, node).
 */
abstract class SignedNodeNoise implements NodeNoise {

  @Override
  public final void add(long epoch, long node, long[] sum) {
    accumulate(epoch, node, sum, false);
  }

  @Override
  public final void subtract(long epoch, long node, long[] sum) {
    accumulate(epoch, node, sum, true);
  }

  /** Adds the noise of (epoch, node) to {@code sum}, or subtracts it if {@code negate}. */
  abstract void accumulate(long epoch, long node, long[] sum, boolean negate);
}
