package org.dpstream.core.privacy.tree;

/**
 * The noise of the tree's nodes, in lattice units.
 *
 * <p>Contract: {@code add} is a deterministic function of (epoch, node), so a node's noise can be
 * regenerated instead of stored, and adding then subtracting the same node leaves a sum unchanged.
 * Node ids come from {@link TreeNodes#id}.
 */
public interface NodeNoise {

  /** Adds the noise of node {@code node} of tree {@code epoch} to {@code sum}. */
  void add(long epoch, long node, long[] sum);

  /** Subtracts what {@link #add} adds. */
  void subtract(long epoch, long node, long[] sum);
}
