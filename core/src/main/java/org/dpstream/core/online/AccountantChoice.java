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
  /**
   * With continuous noise: BLT if its predicted worst-release error in the dual norm is below the better tree's,
   * else that tree (PAPER or ZCDP, whichever predicts the smaller node noise in the dual norm for this d, p, eps,
   * delta, n). With discrete noise: the exact BLT if it predicts less error than the zCDP tree, else that tree
   * (the two mechanisms whose noise lives on the lattice). Public functions of the spec only.
   */
  AUTO,
  /**
   * Gaussian noise through a buffered linear Toeplitz factorization optimised for the horizon, accounted in zCDP
   * (Dvijotham, McMahan, Pillutla, Steinke and Thakurta 2024): the factorization's error at O(d) time per step.
   */
  BLT;

  /**
   * The choice named {@code name} (case-insensitive: paper, zcdp, factorization, blt, auto).
   *
   * @throws IllegalArgumentException naming the accepted values, for any other name
   */
  public static AccountantChoice parse(String name) {
    for (AccountantChoice choice : values()) {
      if (choice.name().equalsIgnoreCase(name.strip())) {
        return choice;
      }
    }
    throw new IllegalArgumentException("accountant must be paper, zcdp, factorization, blt or auto, got '" + name + "'");
  }
}
