package org.dpstream.core.erm.privacy;

import java.util.Locale;
import java.util.Objects;
import org.dpstream.core.privacy.accounting.PrivacyBudget;
import org.dpstream.core.privacy.accounting.Rounding;
import org.dpstream.core.privacy.accounting.ZcdpCalibration;
import org.dpstream.core.privacy.accounting.ZcdpConversion;

/**
 * The noise multiplier z of m adaptively composed Gaussian mechanisms, each releasing a query of l2
 * sensitivity Delta_k with noise N(0, (z Delta_k)^2 I), so that the whole run is (epsilon, delta)-DP.
 *
 * <p>This is the calibration shared by DP-CD (Mangold et al. 2022, Theorem 1: m = T K coordinate updates,
 * Delta_j = 2 C_j / n for the clipped partial derivative under replace-one adjacency) and DP-SkGD
 * (Maranjyan et al., Theorem 4.1: m = K T block updates, Delta_U = 2 L_U / n). Both papers write the
 * result as sigma^2 = 12 L^2 m ln(1/delta) / (n^2 epsilon^2), i.e. sigma = (2 L / n) z with
 * z^2 = 3 m ln(1/delta) / epsilon^2; DP-SkGD derives it through RDP (alpha, alpha/(2 z^2)) per step, which
 * is exactly 1/(2 z^2)-zCDP, so one class serves both. Because z is the same for every mechanism, every step
 * costs rho_step = 1/(2 z^2) whatever block or coordinate it touches, and the block choice (public,
 * data-independent) needs no accounting.
 *
 * <p>Reading followed: the proof sketch's "sigma_j^2 = 4 L_j^2 T K/(n^2 rho)"
 * has a typo (Lemma 4 gives 2); we follow Lemma 5 / Theorem 1 (constant 12), which both papers print.
 *
 * <p>Rounding: z is rounded up; the reported rho and epsilon are rounded up. The spent budget reported by
 * {@link #spent()} is the tight CKS20 conversion of the total rho, which for {@link
 * ZcdpRule#PAPER_CLOSED_FORM} is below the requested epsilon (the paper's Corollary 2 is conservative:
 * about 0.83 epsilon at epsilon = 1, delta = 1e-5).
 *
 * <p>Its privacy map ({@link ZcdpCalibration}): the first t of the m mechanisms cost rho(t) = t / (2 z^2)
 * (rounded up), stated by the tight conversion at the budget's delta; horizon m.
 *
 * <p>Immutable.
 */
public final class GaussianCompositionCalibration implements ZcdpCalibration {

  /** How the accountant names the spent budget: the rule's calibration, stated by the tight conversion. */
  static final String ACCOUNTANT_SUFFIX = "(replace-one; spent by zcdp-cks20)";

  private final PrivacyBudget budget;
  private final long mechanisms;
  private final ZcdpRule rule;
  private final double noiseMultiplier;
  private final double totalRho;
  private final PrivacyBudget spent;

  private GaussianCompositionCalibration(
      PrivacyBudget budget, long mechanisms, ZcdpRule rule, double noiseMultiplier) {
    this.budget = budget;
    this.mechanisms = mechanisms;
    this.rule = rule;
    this.noiseMultiplier = noiseMultiplier;
    this.totalRho = rhoOf(mechanisms, noiseMultiplier);
    this.spent = statedAt(totalRho);
  }

  /**
   * Calibrates m Gaussian mechanisms to the budget.
   *
   * @param mechanisms m &gt;= 1, e.g. T K
   * @throws IllegalArgumentException if m &lt; 1, delta = 0, or (for the paper's rule) epsilon &gt; 1 or
   *     delta &gt;= 1/3
   */
  public static GaussianCompositionCalibration of(
      PrivacyBudget budget, long mechanisms, ZcdpRule rule) {
    Objects.requireNonNull(budget, "budget");
    Objects.requireNonNull(rule, "rule");
    if (mechanisms < 1) {
      throw new IllegalArgumentException("need at least one mechanism, got " + mechanisms);
    }
    if (!(budget.delta() > 0)) {
      throw new IllegalArgumentException("Gaussian mechanisms need delta > 0, got " + budget.delta());
    }
    double logInverseDelta = -Math.log(budget.delta());
    double noiseMultiplier;
    if (rule == ZcdpRule.PAPER_CLOSED_FORM) {
      if (!(budget.epsilon() <= 1) || !(budget.delta() < 1.0 / 3)) {
        throw new IllegalArgumentException(
            "the closed form of Theorem 1 (DP-CD) / Theorem 4.1 (DP-SkGD) is proved for epsilon <= 1 and"
                + " delta < 1/3, got " + budget + "; use ZcdpRule.TIGHT");
      }
      noiseMultiplier = Rounding.up(
          Math.sqrt(3.0 * mechanisms * logInverseDelta) / budget.epsilon());
    } else {
      double rho = rule.conversion().maxRho(budget.epsilon(), budget.delta());
      noiseMultiplier = Rounding.up(Math.sqrt(mechanisms / (2.0 * rho)));
    }
    return new GaussianCompositionCalibration(budget, mechanisms, rule, noiseMultiplier);
  }

  /** z: each mechanism adds N(0, (z Delta)^2) per coordinate, Delta its l2 sensitivity. Rounded up. */
  public double noiseMultiplier() {
    return noiseMultiplier;
  }

  /** sigma = z Delta for a query of l2 sensitivity Delta, rounded up. */
  public double sigmaFor(double sensitivity) {
    requirePositiveFinite(sensitivity, "sensitivity");
    return Rounding.up(noiseMultiplier * sensitivity);
  }

  /** Total rho = m / (2 z^2) of the composition, rounded up. */
  public double totalRho() {
    return totalRho;
  }

  private static double rhoOf(long mechanisms, double noiseMultiplier) {
    return Rounding.up(mechanisms / (2.0 * noiseMultiplier * noiseMultiplier));
  }

  private PrivacyBudget statedAt(double rho) {
    double epsilon = ZcdpConversion.TIGHT.epsilon(rho, budget.delta());
    return new PrivacyBudget(Math.min(epsilon, budget.epsilon()), budget.delta());
  }

  /** rho of the first t mechanisms, t / (2 z^2) rounded up. */
  @Override
  public double rhoAfter(long step) {
    requireStep(step);
    return step == mechanisms ? totalRho : rhoOf(step, noiseMultiplier);
  }

  /** The tight conversion (CKS20), whatever rule derived z. */
  @Override
  public ZcdpConversion conversion() {
    return ZcdpConversion.TIGHT;
  }

  /**
   * The cost of the first t mechanisms: the tight conversion of {@link #rhoAfter} at the budget's delta (for
   * t = m, {@link #spent()}).
   */
  @Override
  public PrivacyBudget spentAfter(long step) {
    return step == mechanisms ? spent : statedAt(rhoAfter(step));
  }

  /** E.g. {@code zcdp-cks20(replace-one; spent by zcdp-cks20)}. */
  @Override
  public String accountant() {
    return rule.accountantName() + ACCOUNTANT_SUFFIX;
  }

  /** m, the number of mechanisms composed. */
  @Override
  public long horizon() {
    return mechanisms;
  }

  private void requireStep(long step) {
    if (step < 1 || step > mechanisms) {
      throw new IllegalArgumentException("step must be in [1, " + mechanisms + "], got " + step);
    }
  }

  /** The budget the noise was calibrated for. */
  @Override
  public PrivacyBudget budget() {
    return budget;
  }

  public long mechanisms() {
    return mechanisms;
  }

  public ZcdpRule rule() {
    return rule;
  }

  /**
   * What the run costs: (epsilon of the tight CKS20 conversion of {@link #totalRho()}, delta). Never above
   * the budget.
   */
  public PrivacyBudget spent() {
    return spent;
  }

  /** E.g. {@code paper-thm1-zcdp(m=3000, z=407.2, rho=0.009, spent eps=0.83 cks20)}. */
  public String describe() {
    return String.format(Locale.ROOT, "%s(m=%d, z=%.6g, rho=%.6g, spent eps=%.6g by cks20, delta=%.3g)",
        rule.accountantName(), mechanisms, noiseMultiplier, totalRho, spent().epsilon(), budget.delta());
  }

  @Override
  public String toString() {
    return describe();
  }

  static double requirePositiveFinite(double value, String name) {
    if (!(value > 0) || !Double.isFinite(value)) {
      throw new IllegalArgumentException(name + " must be positive and finite, got " + value);
    }
    return value;
  }
}
