package org.dpstream.core.online;

/** How the tree's node noise is calibrated. */
public enum AccountantChoice {
  /** The paper's generalized Gaussian with eq. (3.2): basic composition over the h nodes. */
  PAPER,
  /** Isotropic Gaussian node noise accounted in zCDP (Bun and Steinke 2016; tight conversion). */
  ZCDP,
  /**
   * Gaussian noise through the square-root factorization of the prefix-sum matrix, accounted in zCDP
   * (Fichtenberger, Henzinger and Upadhyay 2023): lower error than either tree, at O(t d) time per step.
   */
  FACTORIZATION,
  /** Whichever tree (PAPER or ZCDP) predicts the smaller node noise in the dual norm for this d, p, eps, delta, n. */
  AUTO
}
