package org.dpstream.core.privacy.noise;

import static org.dpstream.core.privacy.noise.NoiseArguments.requireLength;
import static org.dpstream.core.privacy.noise.NoiseArguments.requirePositiveDimension;
import static org.dpstream.core.privacy.noise.NoiseArguments.requirePositiveFinite;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ContinuousSampler;

/**
 * The generalized Gaussian G_{||.||_+}(0, sigma_+^2) of Han et al., "On Private Online Convex
 * Optimization: Optimal Algorithms in l_p-Geometry and High Dimensional Contextual Bandits"
 * (Lemma 2.1): density proportional to exp(-||z||_+^2 / (2 sigma_+^2)) on R^d.
 *
 * <p>{@link #ofLqPlus} samples the l_{q+} case (1 &lt; p &lt;= 2, Lemma 3.2) with Algorithm 4 /
 * Lemma 5.1; {@link #ofRescaledL2} covers 2 &lt; p &lt;= infinity (Lemma 3.3), where the law is an
 * isotropic Gaussian.
 *
 * <p><b>Radius (typo reading).</b> Algorithm 4 and Lemma 3.1 print r^2 ~ Gamma(d/2, 2 sigma_+);
 * we follow the proof of Lemma 3.1 (Appendix A.2), which gives shape d/2 and <em>scale 2
 * sigma_+^2</em>: ||Z||_+ has density proportional to r^(d-1) exp(-r^2 / (2 sigma_+^2)), and
 * u = r^2 turns this into u^(d/2-1) exp(-u / (2 sigma_+^2)). The appendix also uses E||Z||_+^2 =
 * sigma_+^2 d, which only the sigma_+^2 scale gives. We draw r = sigma_+ sqrt(Gamma(d/2, 2)), the
 * same law without squaring sigma_+.
 *
 * <p><b>Direction.</b> Algorithm 4 draws eps_i with density proportional to exp(-|x|^q+) and
 * outputs r x / ||x||_{q+}. With G_i = |eps_i|^q+ ~ Gamma(1/q+, 1) that is coordinate-wise
 * s_i r (G_i / sum_j G_j)^(1/q+): the same value, computed without G_i^(1/q+), which overflows
 * for small q+. The generalized normal is symmetric, so the separate signs of step 4 and the sign
 * of eps_i would be two fair signs multiplied; we draw one sign s_i per coordinate.
 *
 * <p>Any q+ &gt; 0 is accepted: the paper's q+ = min{q - 1, log d - 1} is below 1 for small d,
 * where ||.||_{q+} is only a quasi-norm, but the radial decomposition needs only positive
 * 1-homogeneity (the volume of {||z||_{q+} &lt;= r} scales as r^d).
 *
 * <p>Immutable. A floating-point sampler; the tree mechanism rounds its output to a lattice
 * (post-processing).
 */
public final class GeneralizedGaussianNoise implements VectorNoise {

  private final int dimension;
  private final double qPlus;
  private final double sigmaPlus;

  private GeneralizedGaussianNoise(int dimension, double qPlus, double sigmaPlus) {
    this.dimension = requirePositiveDimension(dimension);
    this.qPlus = requirePositiveFinite(qPlus, "qPlus");
    this.sigmaPlus = requirePositiveFinite(sigmaPlus, "sigmaPlus");
  }

  /**
   * G_{||.||_{q+}}(0, sigma_+^2) in R^d, sampled by Algorithm 4.
   *
   * @throws IllegalArgumentException if {@code dimension <= 0}, or {@code qPlus} or {@code
   *     sigmaPlus} is not finite and &gt; 0
   */
  public static GeneralizedGaussianNoise ofLqPlus(int dimension, double qPlus, double sigmaPlus) {
    return new GeneralizedGaussianNoise(dimension, qPlus, sigmaPlus);
  }

  /**
   * G_{||.||_+}(0, sigma_+^2) for the smooth norm ||.||_+ = c ||.||_2, c = d^(1/2 - 1/p), of Lemma
   * 3.3 (2 &lt; p &lt;= infinity). The density exp(-c^2 ||z||_2^2 / (2 sigma_+^2)) =
   * exp(-||z||_2^2 / (2 (sigma_+/c)^2)) is that of N(0, (sigma_+/c)^2 I_d).
   *
   * @param p primal exponent, &gt; 2; {@link Double#POSITIVE_INFINITY} gives c = sqrt(d)
   * @throws IllegalArgumentException if {@code dimension <= 0}, {@code p} is not &gt; 2, or
   *     {@code sigmaPlus} is not finite and &gt; 0
   */
  public static IidVectorNoise ofRescaledL2(int dimension, double p, double sigmaPlus) {
    requirePositiveDimension(dimension);
    if (!(p > 2)) {
      throw new IllegalArgumentException("p must be > 2 (or infinite), got " + p);
    }
    requirePositiveFinite(sigmaPlus, "sigmaPlus");
    double normScale = Math.pow(dimension, 0.5 - 1 / p);
    return IidVectorNoise.gaussian(dimension, sigmaPlus / normScale);
  }

  @Override
  public int dimension() {
    return dimension;
  }

  /** Exponent q+ of the smooth norm. */
  public double qPlus() {
    return qPlus;
  }

  /** Scale sigma_+: E ||Z||_{q+}^2 = d sigma_+^2. */
  public double sigmaPlus() {
    return sigmaPlus;
  }

  @Override
  public void sample(UniformRandomProvider bits, double[] out) {
    requireLength(out, dimension);
    double radius = sigmaPlus * Math.sqrt(ScalarSamplers.gamma(bits, dimension / 2.0, 2).sample());
    double total = fillWithPoweredMagnitudes(bits, out);
    double inverseQPlus = 1 / qPlus;
    for (int i = 0; i < dimension; i++) {
      out[i] = ScalarSamplers.withRandomSign(bits, radius * Math.pow(out[i] / total, inverseQPlus));
    }
  }

  /** Fills {@code out} with iid Gamma(1/q+, 1) (= |eps_i|^q+) and returns their sum. */
  private double fillWithPoweredMagnitudes(UniformRandomProvider bits, double[] out) {
    ContinuousSampler powered = ScalarSamplers.gamma(bits, 1 / qPlus, 1);
    double total;
    // An all-zero draw only arises from floating-point underflow (large q+, tiny shape); redraw it
    // rather than divide 0 by 0.
    do {
      total = 0;
      for (int i = 0; i < dimension; i++) {
        out[i] = powered.sample();
        total += out[i];
      }
    } while (total == 0);
    return total;
  }

  @Override
  public String describe() {
    return "generalizedGaussian(d=" + dimension + ", q+=" + qPlus + ", sigma+=" + sigmaPlus + ")";
  }

  @Override
  public String toString() {
    return describe();
  }
}
