package org.dpstream.core.erm;

import java.util.Locale;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ContinuousSampler;
import org.dpstream.core.privacy.accounting.FixedCostCalibration;
import org.dpstream.core.privacy.accounting.PrivacyBudget;
import org.dpstream.core.privacy.accounting.PrivacyLedger;
import org.dpstream.core.privacy.accounting.Rounding;
import org.dpstream.core.privacy.noise.ScalarSamplers;
import org.dpstream.core.privacy.random.KeyedNoiseSource;

/**
 * Objective perturbation, Algorithm 2 of Chaudhuri, Monteleoni and Sarwate, "Differentially Private
 * Empirical Risk Minimization" (JMLR 12, 2011), for the l2-regularised logistic loss, as printed: pure
 * epsilon-DP (delta unused, so it meets any (epsilon, delta) budget).
 *
 * <p>In the paper's normalisation (||x|| &lt;= 1, J(f) = (1/n) sum l + (Lambda/2)||f||^2, c = 1/4 the bound on
 * l''):
 * <pre>
 *   epsilon' = epsilon - ln(1 + 2c/(n Lambda) + c^2/(n^2 Lambda^2))
 *   if epsilon' &gt; 0: Delta = 0, else Delta = c / (n (e^(epsilon/4) - 1)) - Lambda and epsilon' = epsilon/2
 *   b ~ density proportional to exp(-epsilon' ||b|| / 2)   (||b|| ~ Gamma(d, 2/epsilon'), direction uniform)
 *   f = argmin J(f) + b'f / n + (Delta/2) ||f||^2
 * </pre>
 * Our records have ||x|| &lt;= R = ||b||_2 (declared bounds); f = R w maps the paper's problem onto ours
 * with Lambda = lambda / R^2, so we minimise F(w) + (R/n) b'w + (Delta R^2 / 2)||w||^2 (Theorem 2 of the
 * paper, replace-one adjacency). The guarantee needs the exact minimiser; see {@link OutputPerturbation}.
 * lambda = 0 is allowed: then Delta carries all the regularisation.
 *
 * <p><b>Up to k records</b> ({@link ErmProblem#maxContributions}): the run is calibrated at epsilon / k, and pure
 * (epsilon / k)-DP for one record is (epsilon, 0)-DP for data sets that differ in k records (group privacy, Dwork
 * and Roth, "The Algorithmic Foundations of Differential Privacy", 2014, Theorem 2.2), exactly the budget.
 */
public final class ObjectivePerturbation implements ErmAlgorithm {

  static final String PURPOSE = "erm-objective-perturbation";

  /**
   * The privacy parameters of one run, in the paper's normalisation.
   *
   * @param epsilonPrime epsilon' of the noise density
   * @param extraRegularization Delta
   */
  public record Calibration(double epsilonPrime, double extraRegularization) {}

  @Override
  public String name() {
    return "objective-perturbation";
  }

  /**
   * epsilon' and Delta for n records, Lambda = lambda / R^2 (paper's Algorithm 2, step 1-2). Delta is rounded
   * up, epsilon' down.
   */
  public static Calibration calibrate(double epsilon, int n, double paperLambda) {
    double c = StronglyConvexLogistic.CURVATURE;
    double ratio = paperLambda > 0 ? c / (n * paperLambda) : Double.POSITIVE_INFINITY;
    double epsilonPrime = epsilon - Math.log1p(2 * ratio + ratio * ratio);
    if (epsilonPrime > 0) {
      return new Calibration(Rounding.down(epsilonPrime), 0);
    }
    double delta = c / (n * Math.expm1(epsilon / 4)) - paperLambda;
    return new Calibration(Rounding.down(epsilon / 2), Rounding.up(delta));
  }

  /**
   * The privacy map: one release, pure epsilon-DP at the budget's epsilon (Theorem 2 of the paper: epsilon'
   * and Delta above are chosen so that the whole release is epsilon-DP), delta 0.
   */
  public static FixedCostCalibration privacyMap(PrivacyBudget budget) {
    return new FixedCostCalibration(ACCOUNTANT, budget, new PrivacyBudget(budget.epsilon(), 0));
  }

  /** The accountant recorded in the ledger. */
  static final String ACCOUNTANT = "pure-epsilon-dp(cms11 objective perturbation, replace-one)";

  @Override
  public ErmRun train(ErmProblem problem, KeyedNoiseSource source, String runId, PassListener listener) {
    double lambda = StronglyConvexLogistic.requireLogisticL2(problem, name(), false);
    ErmDataset data = problem.dataset();
    int n = data.size();
    int d = data.dimension();
    double r = StronglyConvexLogistic.normBound(data);
    double[] linear = new double[d];
    CompositeObjective perturbed = problem.objective();
    Calibration calibration = null;
    PrivacyLedger ledger = null;
    double noiseNorm = 0;
    if (problem.isPrivate()) {
      calibration = calibrate(problem.budget().epsilon() / problem.maxContributions(), n, lambda / (r * r));
      ledger = PrivacyLedger.forRun(privacyMap(problem.budget()));
      UniformRandomProvider bits = source.forStream(PURPOSE, runId).at(0, 0);
      noiseNorm = ScalarSamplers.gamma(bits, d, 2 / calibration.epsilonPrime()).sample();
      ContinuousSampler gaussian = ScalarSamplers.gaussian(bits, 1.0);
      double squared = 0;
      for (int j = 0; j < d; j++) {
        linear[j] = gaussian.sample();
        squared += linear[j] * linear[j];
      }
      double scale = noiseNorm / Math.sqrt(squared) * r / n;
      for (int j = 0; j < d; j++) {
        linear[j] *= scale;
      }
      double extra = calibration.extraRegularization() * r * r;
      if (extra > 0) {
        perturbed = CompositeObjective.of(perturbed.loss(), Regularizer.l2(lambda + extra));
      }
    } else if (lambda == 0) {
      throw new IllegalArgumentException(name() + " without noise needs lambda > 0 (else no unique minimiser)");
    }
    NonPrivateSolver.Solution solution = NonPrivateSolver.solve(data, perturbed, linear,
        StronglyConvexLogistic.SOLVER_TOLERANCE, StronglyConvexLogistic.SOLVER_EPOCHS);
    double[] w = solution.weights();
    listener.onPass(1, w.clone());
    String description = String.format(Locale.ROOT,
        "objective-perturbation: minimiser of the perturbed l2-regularised logistic objective (%d epochs; Chaudhuri"
            + " et al. 2011, Alg. 2, pure epsilon-DP), R=||b||=%.6g, lambda=%.6g; %s",
        solution.epochs(), r, lambda, calibration == null ? "NON-PRIVATE (no noise)" : String.format(Locale.ROOT,
            "epsilon'=%.6g, Delta=%.6g (paper units), noise norm %.6g", calibration.epsilonPrime(),
            calibration.extraRegularization(), noiseNorm))
        + problem.describeUnit(calibration != null, "calibrated at epsilon/k (group privacy of pure DP)");
    return StronglyConvexLogistic.release(name(), w, ledger, solution.epochs(), description);
  }
}
