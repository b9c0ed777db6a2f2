package org.dpstream.core.privacy.accounting;

import java.util.Objects;

/**
 * A zCDP budget as one mechanism spends it: the rho it may spend, and how its cost becomes what the ledger
 * reserves.
 *
 * <p>A model's (epsilon, delta) is converted to rho once, where its spec is read ({@link #of}). From there the
 * budget stays in zCDP down to the noise scale ({@link GaussianZcdpMap} takes rho, not epsilon), and goes back
 * to (epsilon, delta) only for the ledger's check and for reporting ({@link #spent}).
 *
 * <p>A mechanism may share each sample with others composed beside it (adaptive clipping: a block's prefix
 * sums and the block's histogram). zCDP composes by adding rhos (Bun and Steinke 2016, Lemma 2.3), so
 * {@link #beside} gives the budget left for one mechanism when the others spend rho_o on the same sample: the
 * largest rho' whose sum with rho_o, rounded up, stays within the whole rho. Its {@link #spent} converts that
 * sum, the cost of the sample in all of them, so the ledger is given exactly what the calibration checked.
 *
 * <p>Immutable.
 */
public final class ZcdpBudget {

  private final PrivacyBudget budget;
  private final ZcdpConversion conversion;
  private final double rho;
  private final double rhoBeside;

  private ZcdpBudget(PrivacyBudget budget, ZcdpConversion conversion, double rho, double rhoBeside) {
    this.budget = budget;
    this.conversion = conversion;
    this.rho = rho;
    this.rhoBeside = rhoBeside;
  }

  /** The budget of a model's (epsilon, delta) with the tight conversion of Canonne, Kamath and Steinke 2020. */
  public static ZcdpBudget of(PrivacyBudget budget) {
    return of(budget, ZcdpConversion.TIGHT);
  }

  /**
   * The budget of a model's (epsilon, delta): rho the largest whose conversion stays within it (rounded down).
   *
   * @throws IllegalArgumentException if delta is 0: zCDP gives (epsilon, delta) guarantees with delta &gt; 0 only
   */
  public static ZcdpBudget of(PrivacyBudget budget, ZcdpConversion conversion) {
    Objects.requireNonNull(budget, "budget");
    Objects.requireNonNull(conversion, "conversion");
    if (budget.delta() == 0) {
      throw new IllegalArgumentException("zCDP accounting needs delta > 0, got " + budget);
    }
    return new ZcdpBudget(budget, conversion, conversion.maxRho(budget.epsilon(), budget.delta()), 0);
  }

  /**
   * The budget left for a mechanism composed with others that spend {@code rhoOthers} on the same sample:
   * rho' = the largest double (up to an ulp) with rho' (+) rho_o &lt;= the whole rho, (+) the least double at or
   * above the exact sum ({@link Rounding#tightSumUp}). r = nextDown(rho - rho_o) lies below the exact difference,
   * so r + rho_o &lt;= rho exactly and its tight upward rounding is at most rho.
   *
   * @throws IllegalArgumentException if rho_o is negative, not finite, or leaves nothing
   */
  public ZcdpBudget beside(double rhoOthers) {
    if (!(rhoOthers >= 0) || !Double.isFinite(rhoOthers)) {
      throw new IllegalArgumentException(
          "rho of the other mechanisms must be non-negative and finite, got " + rhoOthers);
    }
    if (rhoOthers == 0) {
      return this;
    }
    double whole = total(rho);
    double others = total(rhoOthers);
    double left = Math.nextDown(whole - others);
    if (!(left > 0)) {
      throw new IllegalArgumentException("the other mechanisms' rho " + others + " leaves nothing of " + whole);
    }
    ZcdpBudget besideOthers = new ZcdpBudget(budget, conversion, left, others);
    if (besideOthers.total(left) > whole) {
      throw new IllegalStateException("the split of " + this + " exceeds it; this is a bug");
    }
    return besideOthers;
  }

  /** The (epsilon, delta) the ledger holds and checks. */
  public PrivacyBudget budget() {
    return budget;
  }

  public ZcdpConversion conversion() {
    return conversion;
  }

  /** rho: what this mechanism may spend (rounded down). */
  public double rho() {
    return rho;
  }

  /** What the mechanisms composed beside this one spend on each sample (0 for a mechanism alone). */
  public double rhoBeside() {
    return rhoBeside;
  }

  /**
   * The rho of a sample whose releases in this mechanism cost {@code rhoMechanism}, those beside it included:
   * the sum rounded up to the least double at or above it (exact when nothing is beside).
   */
  public double total(double rhoMechanism) {
    return Rounding.tightSumUp(rhoMechanism, rhoBeside);
  }

  /**
   * What the ledger reserves for a sample whose releases in this mechanism cost {@code rhoMechanism}:
   * (epsilon(total), delta), epsilon rounded up by the conversion.
   */
  public PrivacyBudget spent(double rhoMechanism) {
    return new PrivacyBudget(conversion.epsilon(total(rhoMechanism), budget.delta()), budget.delta());
  }

  /**
   * Whether a cost of {@code rhoMechanism} fits: within this mechanism's rho, and within the (epsilon, delta) as
   * the ledger checks it ({@link #spent}, {@link PrivacyBudget#isWithin}).
   */
  public boolean admits(double rhoMechanism) {
    return rhoMechanism <= rho && spent(rhoMechanism).isWithin(budget);
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof ZcdpBudget that
        && budget.equals(that.budget)
        && conversion == that.conversion
        && Double.compare(rho, that.rho) == 0
        && Double.compare(rhoBeside, that.rhoBeside) == 0;
  }

  @Override
  public int hashCode() {
    return Objects.hash(budget, conversion, rho, rhoBeside);
  }

  @Override
  public String toString() {
    return "ZcdpBudget[rho=" + rho + (rhoBeside == 0 ? "" : ", beside=" + rhoBeside) + " of " + budget + " by "
        + conversion.citation() + "]";
  }
}
