package org.dpstream.core.erm;

import java.util.Objects;
import java.util.Optional;
import org.dpstream.core.privacy.accounting.PrivacyBudget;

/**
 * One training task: data, objective, privacy budget, length in passes, hyper-parameters.
 *
 * <p>A pass is the work of one full gradient, n d partial-derivative evaluations: d coordinate updates for
 * DP-CD, d / E|S| block updates for DP-SkGD, 1/q Poisson-subsampled steps for DP-SGD (Mangold et al. 2022, section 5), so that curves of all methods share an x-axis.
 *
 * @param budget the (epsilon, delta) the run must satisfy under replace-one adjacency for DP-CD and DP-SkGD,
 *     add/remove for DP-SGD (see {@link org.dpstream.core.erm.privacy.SubsampledGaussianRdp}); null for a
 *     non-private run (no noise; clipping as configured), for tests and sanity curves only
 * @param passes &gt;= 1
 * @param maxContributions k &gt;= 1: the budget holds for data sets that differ in up to k records (one person's,
 *     after {@link ContributionBounding} kept at most k per person), not just one; 1 is record-level privacy.
 *     Each algorithm accounts for k exactly or by a proved bound (docs/privacy-layer.md, "Person-level privacy in
 *     train")
 */
public record ErmProblem(ErmDataset dataset, CompositeObjective objective, PrivacyBudget budget, int passes,
    ErmOptions options, int maxContributions) {

  public ErmProblem {
    Objects.requireNonNull(dataset, "dataset");
    Objects.requireNonNull(objective, "objective");
    Objects.requireNonNull(options, "options");
    if (passes < 1) {
      throw new IllegalArgumentException("need at least one pass, got " + passes);
    }
    if (maxContributions < 1) {
      throw new IllegalArgumentException("maxContributions must be >= 1, got " + maxContributions);
    }
    objective.requireCompatible(dataset);
  }

  /** A record-level problem (k = 1). */
  public ErmProblem(ErmDataset dataset, CompositeObjective objective, PrivacyBudget budget, int passes,
      ErmOptions options) {
    this(dataset, objective, budget, passes, options, 1);
  }

  /** A private problem. */
  public static ErmProblem of(ErmDataset dataset, CompositeObjective objective, PrivacyBudget budget,
      int passes, ErmOptions options) {
    return new ErmProblem(dataset, objective, Objects.requireNonNull(budget, "budget"), passes, options);
  }

  /**
   * The explicit non-private mode: the same algorithms with zero noise ({@link
   * org.dpstream.core.privacy.noise.ConstantVectorNoise#zero}), no ledger, no budget. NOT PRIVATE: for the
   * reference lines a data owner compares the private model with ({@code train}'s "NOT PRIVATE" line) and for
   * tests, never for a release.
   */
  public static ErmProblem nonPrivate(
      ErmDataset dataset, CompositeObjective objective, int passes, ErmOptions options) {
    return new ErmProblem(dataset, objective, null, passes, options);
  }

  public boolean isPrivate() {
    return budget != null;
  }

  public Optional<PrivacyBudget> privacyBudget() {
    return Optional.ofNullable(budget);
  }

  /** The same problem with other hyper-parameters. */
  public ErmProblem withOptions(ErmOptions newOptions) {
    return new ErmProblem(dataset, objective, budget, passes, newOptions, maxContributions);
  }

  /** The same problem whose guarantee covers data sets that differ in up to {@code k} records. */
  public ErmProblem withMaxContributions(int k) {
    return new ErmProblem(dataset, objective, budget, passes, options, k);
  }

  /**
   * The end of a private run's description when k &gt; 1: the unit and how the algorithm accounts for it; empty
   * for k = 1 or a non-private run, whose descriptions stay as they were.
   */
  String describeUnit(boolean isPrivateRun, String accounting) {
    return maxContributions == 1 || !isPrivateRun ? "" : String.format(java.util.Locale.ROOT,
        "; per person: up to k=%d records each, %s", maxContributions, accounting);
  }
}
