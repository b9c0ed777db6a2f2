package org.dpstream.bandit.env;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.CombinationSampler;
import org.apache.commons.rng.sampling.distribution.ContinuousSampler;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.apache.commons.rng.simple.RandomSource;

/**
 * The synthetic linear bandit of Han et al., section 5 (bandit experiment, Figure 5.1):
 *
 * <ul>
 *   <li>contexts x_t ~ N(0, 0.05^2 I_d), rescaled to unit l_inf norm (so ||x_t||_2 &lt;= sqrt(d)), shared
 *       by the arms;
 *   <li>each arm's theta*_a has s coordinates chosen uniformly at random set to 1 and the vector
 *       normalised to unit l1 norm (the authors' code sets entries to 1 before normalising; we follow it, so
 *       each support coordinate is 1/s); s = {@link #SPARSITY} as in the paper unless given, and all
 *       coordinates when d &lt; s;
 *   <li>reward r_t = x_t' theta*_{a_t} + N(0, 0.05^2).
 * </ul>
 *
 * Then |x' theta*| &lt;= ||x||_inf ||theta*||_1 = 1 (Hoelder), which gives the bounds. Simulation
 * randomness from Commons RNG, seeded: deterministic per seed.
 */
public final class SyntheticLinearEnvironment implements BanditEnvironment {

  /** Non-zero coordinates of each theta* unless given (the paper's). */
  public static final int SPARSITY = 5;
  /** Standard deviation of the context draws (before normalisation) and of the reward noise. */
  public static final double NOISE_SCALE = 0.05;

  private final int dimension;
  private final double[][] parameters;
  private final UniformRandomProvider random;
  private final ContinuousSampler gaussian;

  /**
   * @param dimension d &gt;= 1
   * @param arms K &gt;= 2
   * @param seed determines theta* and the whole sequence of rounds
   */
  public SyntheticLinearEnvironment(int dimension, int arms, long seed) {
    this(dimension, arms, SPARSITY, seed);
  }

  /**
   * @param dimension d &gt;= 1
   * @param arms K &gt;= 2
   * @param sparsity s &gt;= 1, the non-zero coordinates of each theta*_a (min(s, d) of them)
   * @param seed determines theta* and the whole sequence of rounds
   */
  public SyntheticLinearEnvironment(int dimension, int arms, int sparsity, long seed) {
    if (dimension < 1 || arms < 2 || sparsity < 1) {
      throw new IllegalArgumentException("need d >= 1, K >= 2 and s >= 1: d=" + dimension + ", K=" + arms
          + ", s=" + sparsity);
    }
    this.dimension = dimension;
    this.random = RandomSource.XO_RO_SHI_RO_128_PP.create(seed);
    this.gaussian = ZigguratSampler.NormalizedGaussian.of(random);
    this.parameters = new double[arms][];
    int support = Math.min(sparsity, dimension);
    CombinationSampler supports = new CombinationSampler(random, dimension, support);
    for (int arm = 0; arm < arms; arm++) {
      parameters[arm] = new double[dimension];
      for (int coordinate : supports.sample()) {
        parameters[arm][coordinate] = 1.0 / support;
      }
    }
  }

  @Override
  public int arms() {
    return parameters.length;
  }

  @Override
  public int dimension() {
    return dimension;
  }

  @Override
  public String name() {
    return "synthetic";
  }

  @Override
  public EnvironmentBounds bounds() {
    // ||x||_2 <= sqrt(d) ||x||_inf; |mean| <= 1 and the noise is 0.05-sub-Gaussian, so |r| <= 1 + 4 * 0.05
    // but for a ~6e-5 tail per round that the policy's clipping handles; ||theta*||_2 <= ||theta*||_1 = 1.
    return new EnvironmentBounds(Math.sqrt(dimension), 1 + 4 * NOISE_SCALE, NOISE_SCALE, 1.0);
  }

  /** A copy of theta*_arm. */
  public double[] parameter(int arm) {
    return parameters[arm].clone();
  }

  @Override
  public BanditRound nextRound() {
    double[] context = new double[dimension];
    double largest = 0;
    for (int i = 0; i < dimension; i++) {
      context[i] = NOISE_SCALE * gaussian.sample();
      largest = Math.max(largest, Math.abs(context[i]));
    }
    for (int i = 0; i < dimension; i++) {
      context[i] /= largest; // a Gaussian vector is non-zero with probability 1
    }
    double[] mean = new double[parameters.length];
    double[] observed = new double[parameters.length];
    for (int arm = 0; arm < parameters.length; arm++) {
      mean[arm] = dot(context, parameters[arm]);
      observed[arm] = mean[arm] + NOISE_SCALE * gaussian.sample();
    }
    return new BanditRound(context, mean, observed);
  }

  private static double dot(double[] a, double[] b) {
    double sum = 0;
    for (int i = 0; i < a.length; i++) {
      sum += a[i] * b[i];
    }
    return sum;
  }
}
