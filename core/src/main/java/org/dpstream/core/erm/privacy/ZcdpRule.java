package org.dpstream.core.erm.privacy;

import org.dpstream.core.privacy.accounting.ZcdpConversion;

/**
 * How the per-step noise multiplier of a composition of Gaussian mechanisms is derived from an (epsilon,
 * delta) budget in {@link GaussianCompositionCalibration}. All three are zCDP (Bun and Steinke 2016):
 * the Gaussian mechanism with noise multiplier z (sigma = z * sensitivity) is 1/(2 z^2)-zCDP and m of them
 * compose to m/(2 z^2)-zCDP; they differ only in the conversion to (epsilon, delta).
 */
public enum ZcdpRule {

  /**
   * The papers' closed form, z^2 = 3 m ln(1/delta) / epsilon^2: DP-CD (Mangold et al. 2022) Theorem 1
   * via Lemma 5 and Corollary 2 (rho = epsilon^2 / (6 ln(1/delta))), and DP-SkGD (Maranjyan et al.)
   * Theorem 4.1 (the same constant 12 on L^2 once the sensitivity 2L/n is squared). Proved only for
   * 0 &lt; epsilon &lt;= 1 and delta &lt; 1/3; other budgets are rejected. The default, for
   * reproducibility of the papers' noise.
   */
  PAPER_CLOSED_FORM("paper-thm1-zcdp"),

  /** The exact inverse of the simple conversion epsilon = rho + 2 sqrt(rho ln(1/delta)) (BS16). */
  SIMPLE_EXACT("zcdp-bs16"),

  /** The tight conversion of Canonne, Kamath and Steinke 2020 (CKS20): least noise. */
  TIGHT("zcdp-cks20");

  private final String accountantName;

  ZcdpRule(String accountantName) {
    this.accountantName = accountantName;
  }

  /** Name used in run descriptions, e.g. {@code paper-thm1-zcdp}. */
  public String accountantName() {
    return accountantName;
  }

  /** The conversion whose inverse gives the total rho, or null for the paper's closed form. */
  ZcdpConversion conversion() {
    return switch (this) {
      case PAPER_CLOSED_FORM -> null;
      case SIMPLE_EXACT -> ZcdpConversion.SIMPLE;
      case TIGHT -> ZcdpConversion.TIGHT;
    };
  }
}
