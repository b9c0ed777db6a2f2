package org.dpstream.core.erm;

import java.util.Locale;
import org.dpstream.core.erm.privacy.GaussianCompositionCalibration;
import org.dpstream.core.privacy.accounting.PrivacyLedger;
import org.dpstream.core.privacy.accounting.Rounding;
import org.dpstream.core.privacy.noise.ConstantVectorNoise;
import org.dpstream.core.privacy.noise.IidVectorNoise;
import org.dpstream.core.privacy.noise.VectorNoise;
import org.dpstream.core.privacy.random.KeyedNoiseSource;

/**
 * Output perturbation, the baseline of Chaudhuri, Monteleoni and Sarwate, "Differentially Private
 * Empirical Risk Minimization" (JMLR 12, 2011), Algorithm 1, with Gaussian instead of the paper's
 * norm-Gamma noise so that it spends an (epsilon, delta) budget like the other algorithms:
 * <pre>
 *   w* = argmin_w (1/n) sum_i l(x_i' w, y_i) + (lambda/2) ||w||^2     (logistic loss)
 *   release w* + N(0, sigma^2 I),  sigma = z * 2 R / (n lambda)
 * </pre>
 *
 * <p><b>Privacy.</b> With ||x_i|| &lt;= R = ||b||_2 (declared bounds) and |l'| &lt;= 1, the gradient of one
 * record's loss has norm at most R and the objective is lambda-strongly convex, so replacing one record
 * moves the minimiser by at most 2R / (n lambda) in l2 (CMS11 Corollary 8, with their ||x|| &lt;= 1 and
 * Lambda = lambda / R^2); replacing up to k records ({@link ErmProblem#maxContributions}) moves it by at most
 * 2kR / (n lambda) (the same argument: the objectives' difference has gradient norm at most 2kR/n). One Gaussian
 * mechanism on that sensitivity with noise multiplier z is
 * 1/(2 z^2)-zCDP; z comes from {@link GaussianCompositionCalibration} with one mechanism and
 * {@link ErmOptions#zcdpRule}. Replace-one adjacency, like DP-CD. The argument needs the exact minimiser;
 * the solver stops when an epoch moves no coordinate by more than 1e-12, an error we treat as zero, as
 * every implementation of this baseline does. The run reserves its cost in a {@link PrivacyLedger} before it
 * draws the noise; the non-private mode adds zeros (NOT PRIVATE).
 */
public final class OutputPerturbation implements ErmAlgorithm {

  static final String PURPOSE = "erm-output-perturbation";

  @Override
  public String name() {
    return "output-perturbation";
  }

  @Override
  public ErmRun train(ErmProblem problem, KeyedNoiseSource source, String runId, PassListener listener) {
    double lambda = StronglyConvexLogistic.requireLogisticL2(problem, name(), true);
    ErmDataset data = problem.dataset();
    NonPrivateSolver.Solution solution = NonPrivateSolver.solve(data, problem.objective(),
        StronglyConvexLogistic.SOLVER_TOLERANCE, StronglyConvexLogistic.SOLVER_EPOCHS);
    double[] w = solution.weights();
    int k = problem.maxContributions();
    double sensitivity = Rounding.up(2.0 * k * StronglyConvexLogistic.normBound(data) / (data.size() * lambda));
    int d = w.length;
    GaussianCompositionCalibration calibration = null;
    PrivacyLedger ledger = null;
    VectorNoise noise = ConstantVectorNoise.zero(d);
    double sigma = 0;
    if (problem.isPrivate()) {
      calibration = GaussianCompositionCalibration.of(problem.budget(), 1, problem.options().zcdpRule());
      ledger = PrivacyLedger.forRun(calibration);
      sigma = calibration.sigmaFor(sensitivity);
      noise = IidVectorNoise.gaussian(d, sigma);
    }
    double[] draws = new double[d];
    noise.sample(source.forStream(PURPOSE, runId).at(0, 0), draws);
    for (int j = 0; j < d; j++) {
      w[j] += draws[j];
    }
    listener.onPass(1, w.clone());
    String description = String.format(Locale.ROOT,
        "output-perturbation: exact l2-regularised logistic minimiser (%d epochs) + Gaussian noise (Chaudhuri et al."
            + " 2011, Alg. 1), sensitivity 2R/(n lambda)=%.6g with R=||b||=%.6g, lambda=%.6g; %s; sigma %.6g",
        solution.epochs(), sensitivity, StronglyConvexLogistic.normBound(data), lambda,
        calibration == null ? "NON-PRIVATE (no noise)" : calibration.describe(), sigma)
        + problem.describeUnit(calibration != null, "sensitivity 2kR/(n lambda)");
    return StronglyConvexLogistic.release(name(), w, ledger, solution.epochs(), description);
  }
}
