package org.dpstream.core.erm;

import java.util.Arrays;
import java.util.Locale;
import java.util.function.IntToDoubleFunction;
import org.dpstream.core.erm.privacy.GaussianCompositionCalibration;
import org.dpstream.core.privacy.accounting.PrivacyLedger;
import org.dpstream.core.privacy.accounting.Rounding;
import org.dpstream.core.privacy.noise.ConstantVectorNoise;
import org.dpstream.core.privacy.noise.IidVectorNoise;
import org.dpstream.core.privacy.noise.VectorNoise;
import org.dpstream.core.privacy.random.NoiseStream;

/**
 * The calibration and run plumbing that DP-CD and DP-SkGD share around {@link CoordinateUpdateEngine}: the
 * run's privacy map (its T K updates as Gaussian mechanisms, {@link GaussianCompositionCalibration}) with
 * the ledger that reserves their whole cost before the first noise draw, sigma_j from each algorithm's own
 * sensitivity, the steps 1/M_j, and the engine's run. What differs stays with each algorithm: the bound of
 * one sample's contribution to a coordinate (DP-CD: its clip C_j; DP-SkGD: its block's L_U), the blocks,
 * the clipping, the loop schedule, its noise stream (purpose), name and description.
 */
final class CoordinateRun {

  private final ErmProblem problem;
  private final LoopSchedule schedule;
  private final GaussianCompositionCalibration calibration;
  private final PrivacyLedger ledger;
  private final VectorNoise unitNoise;
  private final double[] sigmas;

  private CoordinateRun(ErmProblem problem, LoopSchedule schedule, GaussianCompositionCalibration calibration,
      PrivacyLedger ledger, VectorNoise unitNoise, double[] sigmas) {
    this.problem = problem;
    this.schedule = schedule;
    this.calibration = calibration;
    this.ledger = ledger;
    this.unitNoise = unitNoise;
    this.sigmas = sigmas;
  }

  /**
   * Opens the run of {@code schedule} on {@code problem}. A private run calibrates its T K updates, reserves
   * their whole cost in its ledger, and gives coordinate j the noise of a Gaussian mechanism on a query of l2
   * sensitivity 2 k L_j / n (replace-one of up to k = {@link ErmProblem#maxContributions} records: each replaced
   * record moves the clipped sum by at most 2 L_j, so k of them by at most 2 k L_j, the triangle inequality;
   * rounded up); the non-private mode (NOT PRIVATE) has no ledger and adds zeros.
   *
   * @param sampleBound L_j: the largest contribution of one sample to coordinate j's update (before 1/n)
   */
  static CoordinateRun open(ErmProblem problem, LoopSchedule schedule, IntToDoubleFunction sampleBound) {
    int n = problem.dataset().size();
    double[] sigmas = new double[problem.dataset().dimension()];
    if (!problem.isPrivate()) {
      return new CoordinateRun(problem, schedule, null, null, ConstantVectorNoise.zero(1), sigmas);
    }
    GaussianCompositionCalibration calibration = GaussianCompositionCalibration.of(
        problem.budget(), schedule.totalUpdates(), problem.options().zcdpRule());
    PrivacyLedger ledger = PrivacyLedger.forRun(calibration);
    for (int j = 0; j < sigmas.length; j++) {
      sigmas[j] = calibration.sigmaFor(
          Rounding.up(2.0 * problem.maxContributions() * sampleBound.applyAsDouble(j) / n));
    }
    return new CoordinateRun(problem, schedule, calibration, ledger, IidVectorNoise.gaussian(1, 1.0), sigmas);
  }

  /** sigma_j, one per coordinate (zeros without privacy). */
  double[] sigmas() {
    return sigmas.clone();
  }

  /** The end of both algorithms' descriptions: the calibration (or NON-PRIVATE) and the range of sigma_j. */
  String describeNoise() {
    return String.format(Locale.ROOT, "%s; sigma_j in [%.4g, %.4g]",
        calibration == null ? "NON-PRIVATE (no noise)" : calibration.describe(), min(sigmas), max(sigmas))
        + problem.describeUnit(calibration != null, "sensitivity 2 k L_j / n");
  }

  /**
   * Runs the engine with steps {@link ErmOptions#stepScale} / M_j on the coordinates of {@code sampling},
   * drawing from {@code bits}, and returns the model with the run's ledger.
   *
   * @param smoothness M_j, one per coordinate
   */
  ErmRun train(String name, BlockSampling sampling, double[] smoothness, double[] coordinateClips,
      double residualClip, long updatesPerPass, NoiseStream bits, PassListener listener, String description) {
    ErmOptions options = problem.options();
    int d = problem.dataset().dimension();
    double[] steps = new double[d];
    for (int j = 0; j < d; j++) {
      steps[j] = options.stepScale() / smoothness[j];
    }
    CoordinateUpdateEngine.Plan plan = new CoordinateUpdateEngine.Plan(problem.dataset(), problem.objective(),
        sampling, steps, sigmas, unitNoise, coordinateClips, residualClip, schedule, updatesPerPass,
        options.initialWeights(d));
    CoordinateUpdateEngine.Outcome outcome = CoordinateUpdateEngine.run(plan, bits, listener);
    return new ErmRun(name, outcome.finalWeights(), outcome.passWeights(), ledger, outcome.updates(),
        description);
  }

  static double min(double[] values) {
    return Arrays.stream(values).min().orElse(Double.NaN);
  }

  static double max(double[] values) {
    return Arrays.stream(values).max().orElse(Double.NaN);
  }
}
