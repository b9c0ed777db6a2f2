package org.dpstream.core.online.baseline;

import org.dpstream.core.privacy.accounting.NormRegularity;
import org.dpstream.core.privacy.accounting.PrivacyBudget;
import org.dpstream.core.privacy.noise.IidVectorNoise;
import org.dpstream.core.privacy.noise.GeneralizedGaussianNoise;
import org.dpstream.core.privacy.noise.VectorNoise;

/**
 * The schedule and noise of one {@link NoisySfw} run, all public functions of the problem's shape,
 * declared bounds and budget (never of the data values).
 *
 * <p><b>Schedule</b> (Han et al.'s description of Bassily, Guzmán and Nandi 2021b, Algorithm 3): the
 * first s_0 = floor(n/2) samples estimate the initial gradient; the rest is cut into K = floor((n -
 * s_0) / b) disjoint batches of b = max(1, floor(sqrt(n)/2)), one per recursive update, so K is about
 * sqrt(n); there are K + 1 Frank-Wolfe steps, each with the constant step size eta (see {@link
 * NoisySfw} for why constant).
 *
 * <p><b>Noise</b>: the generalized Gaussian mechanism (Bassily et al. 2021b; Han et al., Lemma 2.1)
 * for the regular dual norm l_q ({@link NormRegularity}): a release with l_q-sensitivity s gets
 * G_{||.||+}(0, sigma^2) with
 *
 * <pre>
 *   sigma = s sqrt(2 kappa_q ln(1/delta)) / epsilon,
 *   s_initial = 2 L / s_0                (replacing one sample moves a mean of s_0 clipped gradients),
 *   s_update  = 2 beta eta D / b         (||w_{t+1} - w_t||_p &lt;= eta D, so one clipped gradient
 *                                         difference has l_q norm &lt;= beta eta D).
 * </pre>
 *
 * Every sample lies in exactly one batch, so each sample influences exactly one release and the whole
 * run is (epsilon, delta)-DP by parallel composition over an adaptive sequence (the step sizes, batch
 * boundaries and sensitivities are fixed in advance). The clip bounds L and beta eta D are widened by
 * {@link Sensitivities#exactNormBound} for floating point, and sigma is rounded up.
 *
 * <p>Lemma 2.1 is proved for epsilon &lt;= 1 only (as printed it fails for large epsilon; see {@code
 * PaperTreeCalibration}), so larger budgets are rejected rather than calibrated by a formula that does
 * not hold there.
 *
 * @param samples n
 * @param dimension d
 * @param initialBatch s_0 = floor(n/2)
 * @param batchSize b
 * @param updates K, the number of recursive gradient updates
 * @param stepSize eta, the Frank-Wolfe step size (constant)
 * @param lipschitz L, clip bound of one gradient in l_q
 * @param updateClipBound beta eta D, clip bound of one gradient difference in l_q
 * @param regularity kappa_q and the smooth norm of the generalized Gaussian
 * @param initialSigma sigma of the initial gradient's noise
 * @param updateSigma sigma of each update's noise
 */
public record NoisySfwCalibration(int samples, int dimension, int initialBatch, int batchSize, int updates,
    double stepSize, double lipschitz, double updateClipBound, NormRegularity regularity,
    double initialSigma, double updateSigma) {

  static final String SOURCE = "the generalized Gaussian mechanism (Han et al. Lemma 2.1)";

  /**
   * The calibration of {@link NoisySfw#train(BatchProblem, org.dpstream.core.privacy.random.KeyedNoiseSource,
   * String, double)}.
   *
   * @param stepSizeScale multiplies the default step size ln(n)/sqrt(n) (capped at 1); the noise follows
   *     the scaled step, so privacy holds for every scale
   * @throws IllegalArgumentException if n &lt; 4, p = 1, epsilon &gt; 1, delta = 0, the scale is not
   *     positive and finite, or L or beta is not positive and finite
   */
  public static NoisySfwCalibration of(BatchProblem problem, double stepSizeScale) {
    double p = problem.domain().exponent();
    if (!(p > 1)) {
      throw new IllegalArgumentException("NoisySFW needs p > 1 (Bassily et al. 2021b treat p = 1 separately)");
    }
    int n = problem.size();
    if (n < 4) {
      throw new IllegalArgumentException("NoisySFW needs at least 4 samples (one per batch), got " + n);
    }
    PrivacyBudget budget = problem.budget();
    Sensitivities.requireProvedRange(stepSizeScale, budget, SOURCE);

    int d = problem.dimension();
    int initialBatch = n / 2;
    int batchSize = Math.max(1, (int) Math.floor(Math.sqrt(n) / 2));
    int updates = (n - initialBatch) / batchSize;
    double stepSize = Math.min(1, stepSizeScale * defaultStepSize(n));
    double lipschitz = Sensitivities.lipschitz(problem);
    double updateClipBound = Sensitivities.smoothness(problem) * stepSize * problem.domain().diameter();
    NormRegularity regularity = NormRegularity.forPrimalExponent(p, d);

    double mechanismFactor = Math.sqrt(2 * regularity.kappa() * -Math.log(budget.delta())) / budget.epsilon();
    double initialSensitivity = 2 * Sensitivities.exactNormBound(lipschitz, d) / initialBatch;
    double updateSensitivity = 2 * Sensitivities.exactNormBound(updateClipBound, d) / batchSize;
    return new NoisySfwCalibration(n, d, initialBatch, batchSize, updates, stepSize, lipschitz,
        updateClipBound, regularity, Sensitivities.roundUp(initialSensitivity * mechanismFactor),
        Sensitivities.roundUp(updateSensitivity * mechanismFactor));
  }

  /**
   * eta = ln(n) / sqrt(n) (reconstructed, see {@link NoisySfw}): with about sqrt(n) constant steps the
   * Frank-Wolfe contraction (1 - eta)^sqrt(n) is about 1/n, and the noise of the updates adds up to the
   * d^(1/2) / (epsilon n^(3/4)) gradient error that Han et al. quote for this algorithm.
   */
  static double defaultStepSize(int n) {
    return Math.log(n) / Math.sqrt(n);
  }

  /** The noise of the initial gradient estimate. */
  VectorNoise initialNoise() {
    return noiseOf(initialSigma);
  }

  /** The noise of each recursive update. */
  VectorNoise updateNoise() {
    return noiseOf(updateSigma);
  }

  /** No noise at all; a test seam to check the optimiser alone, never reachable from the public API. */
  NoisySfwCalibration withoutNoise() {
    return new NoisySfwCalibration(samples, dimension, initialBatch, batchSize, updates, stepSize, lipschitz,
        updateClipBound, regularity, 0, 0);
  }

  /** G_{||.||+}(0, sigma^2) for the smooth norm the regularity names; null for sigma = 0 (test seam). */
  private VectorNoise noiseOf(double sigma) {
    if (sigma == 0) {
      return null;
    }
    return switch (regularity.smoothNorm()) {
      case LP -> GeneralizedGaussianNoise.ofLqPlus(dimension, regularity.smoothNormExponent(), sigma);
      // ||.||_+ = c ||.||_2: the density exp(-c^2 ||z||_2^2 / (2 sigma^2)) is N(0, (sigma/c)^2 I).
      case SCALED_L2 -> IidVectorNoise.gaussian(dimension, Sensitivities.roundUp(sigma / regularity.euclideanScale()));
    };
  }

  /** One line for reports, e.g. {@code noisy-sfw(n=10000, s0=5000, b=50, K=100, eta=0.092, ...)}. */
  public String describe() {
    return "noisy-sfw(n=" + samples + ", d=" + dimension + ", s0=" + initialBatch + ", b=" + batchSize
        + ", K=" + updates + ", eta=" + stepSize + ", L=" + lipschitz + ", beta*eta*D=" + updateClipBound
        + ", kappa=" + regularity.kappa() + " [" + regularity.source() + "], sigma0=" + initialSigma
        + ", sigma=" + updateSigma + ")";
  }
}
