package org.dpstream.core.online.baseline;

import java.util.Arrays;
import java.util.Objects;
import org.apache.commons.rng.UniformRandomProvider;
import org.dpstream.core.geometry.LpBall;
import org.dpstream.core.privacy.noise.ConstantVectorNoise;
import org.dpstream.core.privacy.noise.IidVectorNoise;
import org.dpstream.core.privacy.noise.VectorNoise;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.random.NoiseStream;

/**
 * NoisySGD: noisy projected stochastic gradient descent, Bassily, Feldman, Guzmán and Talwar, "Stability
 * of Stochastic Gradient Descent on Nonsmooth Convex Losses" (NeurIPS 2020), Algorithm 2, the offline
 * baseline of Han et al. (Section 5.3) for p = infinity.
 *
 * <p><b>As implemented</b> (T, m, eta, sigma in {@link NoisySgdCalibration}):
 *
 * <pre>
 *   w_0 = 0
 *   for t = 0 .. T - 1:
 *     draw m indices i_1..i_m uniformly with replacement (secret bits from the keyed source)
 *     w_{t+1} = Proj_C( w_t - eta ( (1/m) sum_j clip_L(grad f(w_t; z_{i_j})) + G_t ) ),  G_t ~ N(0, sigma^2 I_d)
 *   return the average (1/T) sum_{t=1..T} w_t
 * </pre>
 *
 * with Proj_C the Euclidean projection onto the l_p ball (clamping for the cube).
 *
 * <p><b>Provenance.</b> The source paper was not available; the algorithm and the constants of its
 * Theorems 5.1 and 5.2 (T = n^2, m = max(1, n sqrt(epsilon/(4T))), sigma^2 = 8 T L^2 ln(1/delta) /
 * (n^2 epsilon^2), the step size and the averaged output) are <em>reconstructed from memory</em> of that
 * paper and of its predecessor (Bassily, Feldman, Talwar and Thakurta 2019, which uses the same
 * noisy mini-batch SGD and calibration). Han et al. confirm only the name, the use for p = infinity and
 * the super-linear cost (about 3000 s for n = 10000 in their Python). The l_p to l_2 reduction (l_2
 * Lipschitz constant and diameter of the l_p ball) is that of Bassily et al. 2021b for p &gt; 2.
 * w_0 = 0 is our choice (the paper allows any point of C).
 *
 * <p><b>Cost</b>: T m = n^2 clipped gradients, n^2 d Gaussian draws and n^2 projections, e.g. 10^8
 * iterations for n = 10000. The loop allocates nothing per iteration: the randomness of a block of
 * {@value #ITERATIONS_PER_BLOCK} consecutive iterations comes from one keyed coordinate (0, block), so the
 * AES keystream is produced in large chunks instead of one cipher call per iteration (one coordinate per
 * iteration made the run several times slower). Measured: n = 10000, d = 20, p = infinity takes about 25 s
 * of CPU on one core (Java 17, a shared 2-core AMD EPYC); roughly half of it is the 2 10^9 Gaussian
 * draws and their AES keystream. Projections onto
 * the l_p ball for p other than 1, 2 and infinity cost thousands of pow calls each, which makes n^2 of
 * them impractical beyond small n.
 */
public final class NoisySgd {

  /** Purpose of the noise stream: one key, separate bits for every baseline. */
  public static final String NOISE_PURPOSE = "noisy-sgd";

  /** Iterations whose bits (indices and noise) share one keyed coordinate (0, t / this). */
  static final int ITERATIONS_PER_BLOCK = 1 << 12;

  private NoisySgd() {}

  /** {@link #train(BatchProblem, KeyedNoiseSource, String, double)} with the step size of Theorem 5.2. */
  public static double[] train(BatchProblem problem, KeyedNoiseSource source, String runId) {
    return train(problem, source, runId, 1.0);
  }

  /**
   * Runs NoisySGD and returns the averaged iterate, a point of the domain. Sampled indices and noise of
   * iteration t come from {@code source.forStream("noisy-sgd", runId).at(0, t / }{@value
   * #ITERATIONS_PER_BLOCK}{@code )}, so the same key and run id reproduce the run exactly; a run id must
   * not be reused for a different data set.
   *
   * @param stepSizeScale multiplies the step size (see {@link NoisySgdCalibration#of})
   * @throws IllegalArgumentException see {@link NoisySgdCalibration#of}
   */
  public static double[] train(BatchProblem problem, KeyedNoiseSource source, String runId, double stepSizeScale) {
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(runId, "runId");
    return run(problem, NoisySgdCalibration.of(problem, stepSizeScale), source.forStream(NOISE_PURPOSE, runId));
  }

  /** The schedule and noise scale a default-step run uses, for reports. */
  public static String describe(BatchProblem problem) {
    return NoisySgdCalibration.of(problem, 1.0).describe();
  }

  /** The algorithm on a given calibration; package-private so tests can switch the noise off. */
  static double[] run(BatchProblem problem, NoisySgdCalibration calibration, NoiseStream randomBits) {
    int d = problem.dimension();
    long iterations = calibration.iterations();
    Descent descent = new Descent(problem, calibration);
    double[] total = new double[d];
    for (long block = 0, start = 0; start < iterations; block++, start += ITERATIONS_PER_BLOCK) {
      int count = (int) Math.min(ITERATIONS_PER_BLOCK, iterations - start);
      double[] blockSum = descent.iterate(randomBits.at(0, block), count);
      // Partial sums per block keep the rounding error of the n^2-term average small.
      for (int k = 0; k < d; k++) {
        total[k] += blockSum[k];
      }
    }
    for (int k = 0; k < d; k++) {
      total[k] /= iterations;
    }
    // The average of domain points is inside up to rounding; the projection removes that last ulp.
    return problem.domain().project(total);
  }

  /**
   * The state of one run: the iterate and scratch space. A block of iterations is its own method so the
   * JIT compiles it as a whole rather than as an on-stack replacement of one giant loop.
   */
  private static final class Descent {
    private final ClippedGradients gradients;
    private final LpBall domain;
    private final int samples;
    private final int batchSize;
    private final double stepSize;
    private final VectorNoise noise;
    private final double[] draws;
    private final double[] theta;
    private final double[] unprojected;
    private final double[] batchGradient;
    private final double[] blockSum;

    Descent(BatchProblem problem, NoisySgdCalibration calibration) {
      int d = problem.dimension();
      this.gradients = new ClippedGradients(problem);
      this.domain = problem.domain();
      this.samples = problem.size();
      this.batchSize = calibration.batchSize();
      this.stepSize = calibration.stepSize();
      // sigma = 0 is the tests' non-private mode: zeros, not a flag in the loop
      this.noise = calibration.sigma() > 0 ? IidVectorNoise.gaussian(d, calibration.sigma()) : ConstantVectorNoise.zero(d);
      this.draws = new double[d];
      this.theta = new double[d];
      this.unprojected = new double[d];
      this.batchGradient = new double[d];
      this.blockSum = new double[d];
    }

    /** Runs {@code count} iterations on {@code bits}; returns the sum of the iterates they produced. */
    double[] iterate(UniformRandomProvider bits, int count) {
      Arrays.fill(blockSum, 0);
      for (int t = 0; t < count; t++) {
        meanClippedGradient(bits);
        noise.sample(bits, draws);
        for (int k = 0; k < theta.length; k++) {
          unprojected[k] = theta[k] - stepSize * (batchGradient[k] + draws[k]);
        }
        domain.project(unprojected, theta);
        for (int k = 0; k < theta.length; k++) {
          blockSum[k] += theta[k];
        }
      }
      return blockSum;
    }

    /** batchGradient = (1/m) sum_j clip_L(grad f(theta; z_{i_j})) for m indices drawn with replacement. */
    private void meanClippedGradient(UniformRandomProvider bits) {
      if (batchSize == 1) {
        gradients.clippedGradient(theta, bits.nextInt(samples), batchGradient);
        return;
      }
      Arrays.fill(batchGradient, 0);
      for (int j = 0; j < batchSize; j++) {
        gradients.addClippedGradient(theta, bits.nextInt(samples), batchGradient);
      }
      for (int k = 0; k < batchGradient.length; k++) {
        batchGradient[k] /= batchSize;
      }
    }
  }
}
