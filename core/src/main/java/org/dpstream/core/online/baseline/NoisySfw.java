package org.dpstream.core.online.baseline;

import java.util.Arrays;
import java.util.Objects;
import org.dpstream.core.geometry.LpBall;
import org.dpstream.core.geometry.NormClipper;
import org.dpstream.core.privacy.noise.VectorNoise;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.random.NoiseStream;

/**
 * NoisySFW: noisy stochastic Frank-Wolfe with a recursive (variance-reduced) gradient, Bassily, Guzmán
 * and Nandi, "Non-Euclidean Differentially Private Stochastic Convex Optimization" (COLT 2021), Algorithm
 * 3, the offline baseline of Han et al. (Section 5.3) for 1 &lt; p &lt;= 2.
 *
 * <p><b>As implemented</b> (schedule and noise in {@link NoisySfwCalibration}; q = p/(p-1)):
 *
 * <pre>
 *   w_1 = 0
 *   d_1 = (1/s_0) sum_{i &lt; s_0} clip_L(grad f(w_1; z_i)) + Z_0,          Z_0 ~ G+(0, sigma_0^2)
 *   for t = 1 .. K + 1:
 *     v_t     = argmin_{||v||_p &lt;= r} &lt;d_t, v&gt;
 *     w_{t+1} = w_t + eta (v_t - w_t)
 *     if t &lt;= K, with B_t the t-th batch of b fresh samples:
 *       d_{t+1} = d_t + (1/b) sum_{i in B_t} clip_{beta eta D}(grad f(w_{t+1}; z_i) - grad f(w_t; z_i)) + Z_t,
 *                                                                         Z_t ~ G+(0, sigma^2)
 *   return w_{K+2}
 * </pre>
 *
 * <p><b>Provenance.</b> The source paper was not available. Taken from Han et al.'s description
 * (Section 3.1 and related work): the recursive estimator d_{t+1} = d_t + (batch gradient difference),
 * additive generalized Gaussian noise on every release (so noise accumulates linearly in t), d_1 from
 * the first n/2 samples, then batches of sqrt(n)/2 for sqrt(n) iterations, the generalized Gaussian
 * mechanism of Lemma 2.1 and output of the last iterate. <em>Reconstructed</em>: (1) the constant step
 * size eta = ln(n)/sqrt(n), chosen because it reproduces the n^(-3/4) privacy term Han et al. attribute to
 * Theorem 5.4 of Bassily et al. (a 1/t schedule would give only n^(-1/2)); the caller may scale it, as
 * Han et al. tuned the learning rate by a grid; (2) the sensitivities 2L/s_0 and 2 beta eta D / b
 * (replace-one neighbours, the difference bound from ||w_{t+1} - w_t||_p &lt;= eta D); (3) disjoint
 * batches in index order (samples are exchangeable, so no shuffle); (4) w_1 = 0, as in Han et al.
 *
 * <p><b>Cost</b>: n gradient evaluations (each update sample is used at two points), O(sqrt(n)) noise
 * draws and linear minimisations.
 */
public final class NoisySfw {

  /** Purpose of the noise stream: one key, separate bits for every baseline. */
  public static final String NOISE_PURPOSE = "noisy-sfw";

  private NoisySfw() {}

  /** {@link #train(BatchProblem, KeyedNoiseSource, String, double)} with the default step size. */
  public static double[] train(BatchProblem problem, KeyedNoiseSource source, String runId) {
    return train(problem, source, runId, 1.0);
  }

  /**
   * Runs NoisySFW and returns the final parameters, a point of the domain. The noise of release t (t = 0
   * for the initial gradient, t = 1..K for the updates) comes from {@code source.forStream("noisy-sfw",
   * runId).at(0, t)}, so the same key and run id reproduce the run exactly; a run id must not be reused
   * for a different data set.
   *
   * @param stepSizeScale multiplies the default step size (see {@link NoisySfwCalibration#of})
   * @throws IllegalArgumentException see {@link NoisySfwCalibration#of}
   */
  public static double[] train(BatchProblem problem, KeyedNoiseSource source, String runId, double stepSizeScale) {
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(runId, "runId");
    return run(problem, NoisySfwCalibration.of(problem, stepSizeScale), source.forStream(NOISE_PURPOSE, runId));
  }

  /**
   * The schedule and noise scales a default-step run uses, for reports; {@link NoisySfwCalibration#of}
   * gives them as numbers.
   */
  public static String describe(BatchProblem problem) {
    return NoisySfwCalibration.of(problem, 1.0).describe();
  }

  /** The algorithm on a given calibration; package-private so tests can switch the noise off. */
  static double[] run(BatchProblem problem, NoisySfwCalibration calibration, NoiseStream noiseBits) {
    int d = problem.dimension();
    LpBall domain = problem.domain();
    ClippedGradients gradients = new ClippedGradients(problem);
    NormClipper differenceClipper = NormClipper.of(gradients.dualNorm(), calibration.updateClipBound());
    VectorNoise updateNoise = calibration.updateNoise();
    double eta = calibration.stepSize();
    double[] theta = new double[d];
    double[] nextTheta = new double[d];
    double[] direction = new double[d];
    double[] vertex = new double[d];
    double[] batchSum = new double[d];
    double[] difference = new double[d];
    double[] noise = new double[d];

    for (int i = 0; i < calibration.initialBatch(); i++) {
      gradients.addClippedGradient(theta, i, direction);
    }
    scaleInPlace(direction, 1.0 / calibration.initialBatch());
    addNoise(direction, calibration.initialNoise(), noiseBits, 0, noise);

    int nextSample = calibration.initialBatch();
    for (int t = 1; ; t++) {
      domain.minimizeLinear(direction, vertex);
      for (int k = 0; k < d; k++) {
        nextTheta[k] = theta[k] + eta * (vertex[k] - theta[k]);
      }
      if (t > calibration.updates()) {
        // A convex combination of domain points is inside up to rounding; the projection (a copy for
        // points inside) removes that last ulp, so the result lies in the domain exactly.
        return domain.project(nextTheta);
      }
      Arrays.fill(batchSum, 0);
      for (int j = 0; j < calibration.batchSize(); j++) {
        gradients.addClippedDifference(nextTheta, theta, nextSample++, differenceClipper, difference, batchSum);
      }
      for (int k = 0; k < d; k++) {
        direction[k] += batchSum[k] / calibration.batchSize();
      }
      addNoise(direction, updateNoise, noiseBits, t, noise);
      double[] recycled = theta;
      theta = nextTheta;
      nextTheta = recycled;
    }
  }

  /** Adds one draw of {@code distribution} from the bits at (0, index); nothing if there is no noise. */
  private static void addNoise(double[] target, VectorNoise distribution, NoiseStream noiseBits, long index, double[] scratch) {
    if (distribution == null) {
      return;
    }
    distribution.sample(noiseBits.at(0, index), scratch);
    for (int k = 0; k < target.length; k++) {
      target[k] += scratch[k];
    }
  }

  private static void scaleInPlace(double[] x, double factor) {
    for (int k = 0; k < x.length; k++) {
      x[k] *= factor;
    }
  }
}
