package org.dpstream.core.privacy.noise;

import static org.dpstream.core.privacy.noise.NoiseTestSupport.assertFitsCdf;
import static org.dpstream.core.privacy.noise.NoiseTestSupport.coordinate;
import static org.dpstream.core.privacy.noise.NoiseTestSupport.draw;
import static org.dpstream.core.privacy.noise.NoiseTestSupport.lqNorm;
import static org.dpstream.core.privacy.noise.NoiseTestSupport.seeded;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.apache.commons.statistics.distribution.BetaDistribution;
import org.apache.commons.statistics.distribution.GammaDistribution;
import org.apache.commons.statistics.distribution.NormalDistribution;
import org.apache.commons.statistics.inference.BinomialTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Algorithm 4 of Han et al. Every statistical assertion uses a total false-failure rate of 1e-4
 * per test case (split Bonferroni-style when a case makes several): deterministic with the fixed
 * seeds; a fresh seed would fail a correct sampler with probability at most 1e-4.
 */
class GeneralizedGaussianNoiseTest {

  private static final double ALPHA = 1e-4;
  private static final int N = 10_000;

  /** Lemma 3.1 as proved in Appendix A.2: ||Z||_{q+}^2 ~ Gamma(shape d/2, scale 2 sigma_+^2). */
  @ParameterizedTest(name = "d={0}, q+={1}, sigma+={2}")
  @CsvSource({
    "3, 0.0986122886681098, 0.8", // q+ = log 3 - 1, the paper's q+ for d = 3
    "5, 0.5, 1.3",
    "10, 1.5, 0.7",
    "8, 2, 1.0",
    "20, 4, 2.0"
  })
  void squaredSmoothNormIsGammaWithScaleTwoSigmaPlusSquared(int d, double qPlus, double sigmaPlus) {
    double[][] vectors = draw(lqPlus(d, qPlus, sigmaPlus), seeded(301), N);
    double[] squaredNorms =
        Arrays.stream(vectors).mapToDouble(z -> square(lqNorm(z, qPlus))).toArray();
    GammaDistribution lemma31 = GammaDistribution.of(d / 2.0, 2 * sigmaPlus * sigmaPlus);
    assertFitsCdf(squaredNorms, lemma31::cumulativeProbability, ALPHA, "||Z||_+^2");
  }

  /**
   * Each coordinate u_i of the direction Z / ||Z||_{q+} is sign-symmetric: its sign is a fair coin
   * (binomial test), and u_i fits the symmetric CDF (1 + sgn(x) B(|x|^q+)) / 2, where B is the
   * Beta(1/q+, (d-1)/q+) CDF of |u_i|^q+ = G_i / sum_j G_j (G_j iid Gamma(1/q+, 1)).
   */
  @ParameterizedTest(name = "q+={0}")
  @ValueSource(doubles = {0.7, 1.5, 3})
  void directionCoordinatesAreSignSymmetric(double qPlus) {
    int d = 6;
    double[][] vectors = draw(lqPlus(d, qPlus, 1.9), seeded(302), N);
    BetaDistribution poweredMagnitude = BetaDistribution.of(1 / qPlus, (d - 1) / qPlus);
    double alphaPerAssertion = ALPHA / (2 * d);
    for (int i = 0; i < d; i++) {
      double[] direction = new double[N];
      int positive = 0;
      for (int k = 0; k < N; k++) {
        direction[k] = vectors[k][i] / lqNorm(vectors[k], qPlus);
        positive += direction[k] > 0 ? 1 : 0;
      }
      double signP = BinomialTest.withDefaults().test(N, positive, 0.5).getPValue();
      assertTrue(signP >= alphaPerAssertion, "coordinate " + i + ": " + positive + " of " + N);
      assertFitsCdf(
          direction,
          x -> 0.5 + 0.5 * Math.signum(x) * poweredMagnitude.cumulativeProbability(abs(x, qPlus)),
          alphaPerAssertion,
          "direction coordinate " + i);
    }
  }

  /** For q+ = 2 the density exp(-||z||_2^2 / (2 sigma^2)) is N(0, sigma^2 I). */
  @Test
  void qPlusTwoGivesIsotropicGaussianCoordinates() {
    int d = 5;
    double sigma = 1.7;
    double[][] vectors = draw(lqPlus(d, 2, sigma), seeded(303), N);
    for (int i = 0; i < d; i++) {
      assertFitsCdf(
          coordinate(vectors, i),
          NormalDistribution.of(0, sigma)::cumulativeProbability,
          ALPHA / d,
          "coordinate " + i);
    }
  }

  @Test
  void rescaledL2IsGaussianWithStdSigmaPlusOverNormScale() {
    // c = d^(1/2 - 1/p): 16^(1/4) = 2, 9^(1/2) = 3, 8^(1/6) = sqrt(2).
    assertEquals(3.0, GeneralizedGaussianNoise.ofRescaledL2(16, 4, 6).scale(), 1e-12);
    double pInfinity = Double.POSITIVE_INFINITY;
    assertEquals(2.0, GeneralizedGaussianNoise.ofRescaledL2(9, pInfinity, 6).scale(), 1e-12);
    assertEquals(1 / Math.sqrt(2), GeneralizedGaussianNoise.ofRescaledL2(8, 3, 1).scale(), 1e-12);
    assertEquals(20, GeneralizedGaussianNoise.ofRescaledL2(20, 5, 1).dimension());
  }

  /** Lemma 3.1 for ||z||_+ = c ||z||_2, c = d^(1/2 - 1/p): c^2 ||Z||_2^2 ~ Gamma(d/2, 2 sigma_+^2). */
  @Test
  void rescaledL2SquaredSmoothNormIsGammaWithScaleTwoSigmaPlusSquared() {
    int d = 12;
    double p = 3;
    double sigmaPlus = 1.4;
    double normScale = Math.pow(d, 0.5 - 1 / p);
    double[][] vectors = draw(rescaledL2(d, p, sigmaPlus), seeded(304), N);
    double[] squaredNorms =
        Arrays.stream(vectors).mapToDouble(z -> square(normScale * lqNorm(z, 2))).toArray();
    GammaDistribution lemma31 = GammaDistribution.of(d / 2.0, 2 * sigmaPlus * sigmaPlus);
    assertFitsCdf(squaredNorms, lemma31::cumulativeProbability, ALPHA, "c^2 ||Z||_2^2");
  }

  /** A naive r x / ||x||_{q+} overflows to NaN for small q+ (|eps_i| = G^(1/q+)); ours must not. */
  @ParameterizedTest(name = "q+={0}")
  @ValueSource(doubles = {0.01, 0.0986122886681098, 80})
  void extremeExponentsGiveFiniteNonZeroVectors(double qPlus) {
    for (double[] z : draw(lqPlus(50, qPlus, 3), seeded(305), 200)) {
      assertTrue(Arrays.stream(z).allMatch(Double::isFinite), Arrays.toString(z));
      double norm = lqNorm(z, qPlus);
      assertTrue(norm > 0 && Double.isFinite(norm), "norm " + norm);
    }
  }

  /** q+ and sigma+ enter the tree's noise-law fingerprint and its description: read back as given. */
  @Test
  void parametersAreReadBackAsGiven() {
    GeneralizedGaussianNoise noise = GeneralizedGaussianNoise.ofLqPlus(7, 1.25, 0.75);
    assertEquals(1.25, noise.qPlus());
    assertEquals(0.75, noise.sigmaPlus());
    assertEquals(7, noise.dimension());
    assertEquals("generalizedGaussian(d=7, q+=1.25, sigma+=0.75)", noise.describe());
  }

  @Test
  void rejectsBadParametersWithClearMessages() {
    assertMessage("dimension must be > 0, got 0", () -> lqPlus(0, 2, 1));
    assertMessage("qPlus must be finite and > 0, got 0.0", () -> lqPlus(3, 0, 1));
    double paperQPlusForDimensionTwo = Math.log(2) - 1;
    assertMessage(
        "qPlus must be finite and > 0, got " + paperQPlusForDimensionTwo,
        () -> lqPlus(2, paperQPlusForDimensionTwo, 1));
    assertMessage("qPlus must be finite and > 0, got NaN", () -> lqPlus(3, Double.NaN, 1));
    assertMessage("sigmaPlus must be finite and > 0, got NaN", () -> lqPlus(3, 2, Double.NaN));
    assertMessage("sigmaPlus must be finite and > 0, got -1.0", () -> lqPlus(3, 2, -1));
    assertMessage("p must be > 2 (or infinite), got 2.0", () -> rescaledL2(3, 2, 1));
    assertMessage("p must be > 2 (or infinite), got NaN", () -> rescaledL2(3, Double.NaN, 1));
    assertMessage("dimension must be > 0, got -1", () -> rescaledL2(-1, 4, 1));
    assertMessage("sigmaPlus must be finite and > 0, got 0.0", () -> rescaledL2(3, 4, 0));
  }

  private static VectorNoise lqPlus(int d, double qPlus, double sigmaPlus) {
    return GeneralizedGaussianNoise.ofLqPlus(d, qPlus, sigmaPlus);
  }

  private static VectorNoise rescaledL2(int d, double p, double sigmaPlus) {
    return GeneralizedGaussianNoise.ofRescaledL2(d, p, sigmaPlus);
  }

  private static void assertMessage(String expected, Executable factory) {
    assertEquals(expected, assertThrows(IllegalArgumentException.class, factory).getMessage());
  }

  /** |x|^q. */
  private static double abs(double x, double q) {
    return Math.pow(Math.abs(x), q);
  }

  private static double square(double x) {
    return x * x;
  }
}
