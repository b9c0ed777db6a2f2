package org.dpstream.core.online;

/** How a model's noise is sampled (config key {@code noise}). */
public enum NoiseChoice {
  /** Floating-point Gaussian (Ziggurat) rounded to the lattice: fastest; see docs/privacy-layer.md for its caveat. */
  CONTINUOUS,
  /**
   * No floating-point noise: for DP-TOFW (p &gt; 1) the exact discrete Gaussian on the lattice (Canonne, Kamath
   * and Steinke 2020), zCDP tree only (accountant zcdp or auto); for DP-POFW (p = 1) the exact exponential
   * mechanism over lattice scores ({@link ExactVertexChoice}), accountant zcdp or auto.
   */
  DISCRETE;

  /**
   * What the spec's fingerprint records: the choice and the version of its sampler's use of the keyed bits.
   * A saved state's noise is regenerated from the key on restore, so a sampler that reads the bits
   * differently would give the live nodes a second, independent noise draw; a new version makes such a
   * state refused instead. Version 2 of the discrete sampler reads bits through {@code RandomBits} (version 1
   * took a 64-bit word per decision); version 3 draws the tree's sigma (from 2^20 units) with the tabulated
   * sampler at sigma rounded up to a multiple of 2^8. The continuous token is unchanged, so its states still
   * resume.
   */
  public String fingerprintToken() {
    return this == DISCRETE ? "DISCRETE3" : name();
  }

  /**
   * The config and CLI spelling: {@code continuous} or {@code discrete}, any case.
   *
   * @throws IllegalArgumentException naming the accepted values and the value given
   */
  public static NoiseChoice parse(String text) {
    String name = text == null ? "" : text.strip().toLowerCase(java.util.Locale.ROOT);
    return switch (name) {
      case "continuous" -> CONTINUOUS;
      case "discrete" -> DISCRETE;
      default -> throw new IllegalArgumentException("noise must be continuous or discrete, got " + text);
    };
  }
}
