package org.dpstream.core.online.baseline;

import org.dpstream.core.geometry.LpNorm;
import org.dpstream.core.privacy.accounting.PrivacyBudget;

/**
 * The schedule and noise of one {@link NoisySgd} run, all public functions of the problem's shape,
 * declared bounds and budget.
 *
 * <p>Bassily, Feldman, Guzmán and Talwar (NeurIPS 2020), Algorithm 2 with the parameters of their
 * Theorems 5.1 (privacy) and 5.2 (utility), as reconstructed (see {@link NoisySgd}):
 *
 * <pre>
 *   T     = n^2 iterations
 *   m     = max(1, floor(n sqrt(epsilon / (4 T))))                = 1 for epsilon &lt;= 1
 *   sigma = sqrt(8 T ln(1/delta)) L_2 / (n epsilon)               = L_2 sqrt(8 ln(1/delta)) / epsilon
 *   eta   = D_2 / (L_2 n) min{4 / sqrt(n), epsilon / sqrt(d ln(1/delta))}   (times the caller's scale)
 * </pre>
 *
 * The algorithm is Euclidean: L_2 bounds the l_2 norm of a clipped gradient and D_2 is the l_2
 * diameter of the domain. For an l_p ball (the reduction Bassily et al. 2021b use for p &gt; 2),
 * gradients are clipped in l_q to L and ||g||_2 &lt;= d^(max(0, 1/2 - 1/q)) ||g||_q, so L_2 = L
 * d^(max(0, 1/2 - 1/q)) (= L for p &gt;= 2), and D_2 = 2 r d^(max(0, 1/2 - 1/p)) (2 r sqrt(d) for the cube).
 *
 * <p>The privacy calibration is the moments accountant of Abadi et al. (2016, Theorem 1) with
 * sampling rate m/n over T steps, as Bassily et al. state it; it is proved for epsilon &lt;= 1 (the
 * accountant's condition epsilon &lt; c_1 (m/n)^2 T with (m/n)^2 T = 1 here), so larger budgets are
 * rejected. Abadi et al.'s constants are not explicit, so as a cross-check (not a proof) we computed the
 * Renyi-DP of the Poisson-subsampled Gaussian (Mironov, Talwar and Zhang 2019) with rate 1/n, noise
 * multiplier sigma / (2 L_2) (replace-one sensitivity) and T = n^2 steps: at epsilon = 1, delta = 1/n it
 * gives epsilon of about 0.77 (n = 1000) and 0.81 (n = 10000), within the budget. Sampling with
 * replacement is not Poisson sampling, so this only supports the calibration. sigma does not depend on
 * the step size, so any scale keeps the guarantee. L_2 is widened by
 * {@link Sensitivities#exactNormBound} for floating point and sigma is rounded up.
 *
 * @param samples n
 * @param dimension d
 * @param iterations T = n^2
 * @param batchSize m
 * @param stepSize eta
 * @param lipschitz L, clip bound of one gradient in l_q
 * @param euclideanLipschitz L_2, the l_2 bound of one clipped gradient
 * @param euclideanDiameter D_2
 * @param sigma standard deviation of each coordinate of the Gaussian added to the mean batch gradient
 */
public record NoisySgdCalibration(int samples, int dimension, long iterations, int batchSize, double stepSize,
    double lipschitz, double euclideanLipschitz, double euclideanDiameter, double sigma) {

  static final String SOURCE = "the moments-accountant calibration of Bassily et al. (2020), Theorem 5.1";

  /**
   * @param stepSizeScale multiplies the step size of Theorem 5.2
   * @throws IllegalArgumentException if n &lt; 2, epsilon &gt; 1, delta = 0,
   *     the scale is not positive and finite, or L is not positive and finite
   */
  public static NoisySgdCalibration of(BatchProblem problem, double stepSizeScale) {
    int n = problem.size();
    if (n < 2) {
      throw new IllegalArgumentException("NoisySGD needs at least 2 samples, got " + n);
    }
    PrivacyBudget budget = problem.budget();
    Sensitivities.requireProvedRange(stepSizeScale, budget, SOURCE);

    int d = problem.dimension();
    double p = problem.domain().exponent();
    long iterations = (long) n * n;
    double epsilon = budget.epsilon();
    double logInverseDelta = -Math.log(budget.delta());
    int batchSize = (int) Math.max(1, Math.floor(n * Math.sqrt(epsilon / (4.0 * iterations))));
    double lipschitz = Sensitivities.lipschitz(problem);
    double euclideanLipschitz = Sensitivities.roundUp(Sensitivities.euclideanOverDual(LpNorm.dualExponent(p), d)
        * Sensitivities.exactNormBound(lipschitz, d));
    double euclideanDiameter = Sensitivities.euclideanOverPrimal(p, d) * problem.domain().diameter();
    double sigma = Sensitivities.roundUp(
        Math.sqrt(8.0 * iterations * logInverseDelta) * euclideanLipschitz / (n * epsilon));
    double stepSize = stepSizeScale * euclideanDiameter / (euclideanLipschitz * n)
        * Math.min(4 / Math.sqrt(n), epsilon / Math.sqrt(d * logInverseDelta));
    return new NoisySgdCalibration(
        n, d, iterations, batchSize, stepSize, lipschitz, euclideanLipschitz, euclideanDiameter, sigma);
  }

  /** No noise at all; a test seam to check the optimiser alone, never reachable from the public API. */
  NoisySgdCalibration withoutNoise() {
    return new NoisySgdCalibration(samples, dimension, iterations, batchSize, stepSize, lipschitz,
        euclideanLipschitz, euclideanDiameter, 0);
  }

  /** One line for reports. */
  public String describe() {
    return "noisy-sgd(n=" + samples + ", d=" + dimension + ", T=" + iterations + ", m=" + batchSize + ", eta="
        + stepSize + ", L=" + lipschitz + ", L2=" + euclideanLipschitz + ", D2=" + euclideanDiameter
        + ", sigma=" + sigma + ")";
  }
}
