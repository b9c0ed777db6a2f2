package org.dpstream.core.erm.privacy;

import java.util.Locale;
import java.util.Objects;
import org.dpstream.core.privacy.accounting.PrivacyBudget;
import org.dpstream.core.privacy.accounting.PrivacyCalibration;
import org.dpstream.core.privacy.accounting.Rounding;

/**
 * DP-SGD's privacy map: S Poisson-subsampled Gaussian steps of one noise multiplier z, calibrated to a budget
 * by {@link SubsampledGaussianRdp#calibrate}; the first t steps cost (epsilon of t composed steps at the best
 * evaluated order, the budget's delta), by the run's {@link RdpConversion}. Add/remove adjacency (see {@link
 * SubsampledGaussianRdp}). Immutable.
 *
 * <p><b>Up to k records at once</b> ({@link #forGroup}): data sets that differ by adding or removing up to k
 * records. Each step then draws a random subset of the k records (each with probability q) whose clipped sum, of
 * norm at most k C, shifts the Gaussian; the output is a mixture over the subsets. Both Renyi divergences of that
 * mixture and N(0, (z C)^2 I) are convex in the mixture, so each is at most that of the worst component; a
 * component with the empty subset is N(0, .) itself, and by rotation invariance and data processing (x -&gt; a x +
 * N(0, (1 - a^2) (z C)^2), a &lt;= 1, maps a shift of k C to any smaller one and fixes N(0, .)) the worst is one
 * Poisson-subsampled Gaussian of rate q_k = 1 - (1 - q)^k and sensitivity k C. So S steps of multiplier z are
 * accounted as the one-record mechanism with rate q_k and multiplier z / k (docs/privacy-layer.md; the exact
 * mixture-of-Gaussians accounting of Ganesh, "Tight Group-Level DP Guarantees for DP-SGD with Sampling via
 * Mixture of Gaussians Mechanisms", 2024, is tighter). The calibration finds z / k for the budget, then z.
 */
public final class SubsampledGaussianCalibration implements PrivacyCalibration {

  private final SubsampledGaussianRdp accountant;
  private final long steps;
  private final PrivacyBudget budget;
  private final RdpConversion conversion;
  private final int groupSize;

  private SubsampledGaussianCalibration(SubsampledGaussianRdp accountant, long steps, PrivacyBudget budget,
      RdpConversion conversion, int groupSize) {
    this.accountant = accountant;
    this.steps = steps;
    this.budget = budget;
    this.conversion = conversion;
    this.groupSize = groupSize;
  }

  /** The smallest z (to 1e-7 relative, safe side) whose S steps at rate q fit the budget. */
  public static SubsampledGaussianCalibration of(double samplingRate, long steps, PrivacyBudget budget,
      RdpConversion conversion) {
    return forGroup(samplingRate, steps, budget, conversion, 1);
  }

  /**
   * The smallest z (to 1e-7 relative, safe side) whose S steps at rate q fit the budget for data sets that differ
   * by adding or removing up to {@code groupSize} = k records: the one-record accountant at rate q_k = 1 - (1 -
   * q)^k (rounded up) and multiplier z / k (see the class comment). k = 1 is {@link #of}.
   */
  public static SubsampledGaussianCalibration forGroup(double samplingRate, long steps, PrivacyBudget budget,
      RdpConversion conversion, int groupSize) {
    Objects.requireNonNull(budget, "budget");
    Objects.requireNonNull(conversion, "conversion");
    if (groupSize < 1) {
      throw new IllegalArgumentException("group size must be >= 1, got " + groupSize);
    }
    return new SubsampledGaussianCalibration(
        SubsampledGaussianRdp.calibrate(groupSamplingRate(samplingRate, groupSize), steps, budget, conversion),
        steps, budget, conversion, groupSize);
  }

  /** q_k = 1 - (1 - q)^k, the probability that a step samples at least one of k records; rounded up, at most 1. */
  static double groupSamplingRate(double samplingRate, int groupSize) {
    return groupSize == 1 ? samplingRate
        : Math.min(1.0, Rounding.up(-Math.expm1(groupSize * Math.log1p(-samplingRate))));
  }

  /** z, each step's noise multiplier: k times the accounted one-record multiplier, rounded up. */
  public double noiseMultiplier() {
    return groupSize == 1 ? accountant.noiseMultiplier() : Rounding.up(groupSize * accountant.noiseMultiplier());
  }

  /** E.g. {@code rdp-poisson-gaussian(add/remove)/mironov17}; with k &gt; 1, {@code (add/remove of up to k records)}. */
  @Override
  public String accountant() {
    return "rdp-poisson-gaussian(add/remove" + (groupSize == 1 ? "" : " of up to " + groupSize + " records") + ")/"
        + conversion.citation();
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
    String oneRecord = accountant.describe(steps, budget.delta(), conversion);
    return groupSize == 1 ? oneRecord : String.format(Locale.ROOT,
        "up to k=%d records: z=%.6g accounted as one record at q_k=1-(1-q)^k, z/k: %s", groupSize,
        noiseMultiplier(), oneRecord);
  }
}
