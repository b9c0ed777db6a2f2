package org.dpstream.core.online;

/** How the tree's Gaussian node noise is sampled (config key {@code noise}). */
public enum NoiseChoice {
  /** Floating-point Gaussian (Ziggurat) rounded to the lattice: fastest; see docs/privacy-layer.md for its caveat. */
  CONTINUOUS,
  /**
   * The exact discrete Gaussian on the lattice (Canonne, Kamath and Steinke 2020): no floating-point
   * noise; zCDP tree only (accountant zcdp or auto), DP-TOFW only (p &gt; 1).
   */
  DISCRETE
}
