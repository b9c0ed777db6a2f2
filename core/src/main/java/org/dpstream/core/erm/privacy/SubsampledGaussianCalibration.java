package org.dpstream.core.erm.privacy;

import java.util.Objects;
import org.dpstream.core.privacy.accounting.PrivacyBudget;
import org.dpstream.core.privacy.accounting.PrivacyCalibration;

/**
 * DP-SGD's privacy map: S Poisson-subsampled Gaussian steps of one noise multiplier z, calibrated to a budget
 * by {@link SubsampledGaussianRdp#calibrate}; the first t steps cost (epsilon of t composed steps at the best
 * evaluated order, the budget's delta), by the run's {@link RdpConversion}. Add/remove adjacency (see {@link
 * SubsampledGaussianRdp}). Immutable.
 */
public final class SubsampledGaussianCalibration implements PrivacyCalibration {

  private final SubsampledGaussianRdp accountant;
  private final long steps;
  private final PrivacyBudget budget;
  private final RdpConversion conversion;

  private SubsampledGaussianCalibration(SubsampledGaussianRdp accountant, long steps, PrivacyBudget budget,
      RdpConversion conversion) {
    this.accountant = accountant;
    this.steps = steps;
    this.budget = budget;
    this.conversion = conversion;
  }

  /** The smallest z (to 1e-7 relative, safe side) whose S steps at rate q fit the budget. */
  public static SubsampledGaussianCalibration of(double samplingRate, long steps, PrivacyBudget budget,
      RdpConversion conversion) {
    Objects.requireNonNull(budget, "budget");
    Objects.requireNonNull(conversion, "conversion");
    return new SubsampledGaussianCalibration(
        SubsampledGaussianRdp.calibrate(samplingRate, steps, budget, conversion), steps, budget, conversion);
  }

  /** z, each step's noise multiplier. */
  public double noiseMultiplier() {
    return accountant.noiseMultiplier();
  }

  /** E.g. {@code rdp-poisson-gaussian(add/remove)/mironov17}. */
  @Override
  public String accountant() {
    return "rdp-poisson-gaussian(add/remove)/" + conversion.citation();
  }

  @Override
  public PrivacyBudget budget() {
    return budget;
  }

  /** S, the number of steps. */
  @Override
  public long horizon() {
    return steps;
  }

  /** (epsilon of the first t steps, rounded up, minimised over the orders; the budget's delta). */
  @Override
  public PrivacyBudget spentAfter(long step) {
    if (step < 1 || step > steps) {
      throw new IllegalArgumentException("step must be in [1, " + steps + "], got " + step);
    }
    return new PrivacyBudget(accountant.epsilon(step, budget.delta(), conversion), budget.delta());
  }

  /** The accountant's line for run descriptions, with the order attaining epsilon. */
  public String describe() {
    return accountant.describe(steps, budget.delta(), conversion);
  }
}
